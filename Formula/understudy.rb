# The `understudy` command from source, for a Mac (or Linux) with Homebrew:
#   brew install --HEAD ./Formula/understudy.rb
# or from a tap that carries this file. `head` names the repository the package's README uses as a placeholder;
# a tap sets it to wherever the package is published.
class Understudy < Formula
  desc "DummyJSON-compatible fake HTTP backend that fails on cue"
  homepage "https://example.com/understudy"
  head "https://example.com/understudy.git", branch: "main"

  depends_on "pkgconf" => :build
  depends_on xcode: ["16.3", :build] # swift-tools-version 6.1
  depends_on "libevent"
  depends_on "openssl@3"

  def install
    # openssl@3 is keg-only: SwiftPM finds libcrypto through pkg-config, which must be told where it is.
    ENV.prepend_path "PKG_CONFIG_PATH", Formula["openssl@3"].opt_lib/"pkgconfig"
    ENV.prepend_path "PKG_CONFIG_PATH", Formula["libevent"].opt_lib/"pkgconfig"
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "understudy"
    bin.install ".build/release/understudy"
  end

  test do
    port = free_port
    pid = spawn bin/"understudy", "--port", port.to_s, "--quiet"
    begin
      system bin/"understudy", "wait", "--timeout", "30", "http://localhost:#{port}"
      assert_match "Silk Veil Foundation", shell_output("curl -fsS http://localhost:#{port}/products/1")
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
  end
end
