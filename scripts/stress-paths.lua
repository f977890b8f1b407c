-- wrk script for make stress: rotates over the catalogue routes.
local paths = {"/products/1", "/products", "/products/search?q=phone", "/products?sortBy=price&order=desc&limit=10",
               "/products/category/smartphones", "/products/categories", "/products/42?select=title,price"}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
