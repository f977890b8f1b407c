/// Documents the spec suites serve.
package enum SpecFixtures {
    /// A small pets API that exercises what the mock does: examples, a 422 of its own, security, parameters of every
    /// style, a deprecated operation, and a collection.
    package static let pets = #"""
    {
      "openapi": "3.1.0",
      "info": {"title": "Pets", "version": "1"},
      "servers": [{"url": "https://api.example.com/v1"}],
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}, "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
        "schemas": {
          "Pet": {"type": "object", "required": ["id", "name"], "properties": {
            "id": {"type": "integer", "readOnly": true}, "name": {"type": "string", "minLength": 1},
            "status": {"type": "string", "enum": ["available", "sold"]}, "createdAt": {"type": "string", "format": "date-time", "readOnly": true}}},
          "Error": {"type": "object", "required": ["code"], "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}
        }
      },
      "paths": {
        "/pets": {
          "get": {"operationId": "listPets",
            "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}},
                           {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}}],
            "responses": {"200": {"description": "pets", "content": {"application/json": {
              "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}},
              "examples": {"two": {"value": [{"id": 1, "name": "Rex", "status": "available", "createdAt": "2024-01-01T00:00:00Z"},
                                             {"id": 2, "name": "Tom", "status": "sold", "createdAt": "2024-01-02T00:00:00Z"}]},
                           "none": {"value": []}}}}}}},
          "post": {"operationId": "createPet", "security": [{"bearer": []}, {"key": []}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
            "responses": {"201": {"description": "created", "headers": {"Location": {"schema": {"type": "string", "example": "/v1/pets/3"}}},
                                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                          "422": {"description": "invalid", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"},
                                  "example": {"code": 422, "message": "invalid pet"}}}}}}
        },
        "/pets/mine": {"get": {"operationId": "myPets", "responses": {"200": {"description": "mine", "content": {"application/json": {"example": {"mine": true}}}}}}},
        "/pets/{petId}": {
          "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}}],
          "get": {"operationId": "getPet", "responses": {
            "200": {"description": "a pet", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}},
                                                        "application/xml": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
            "404": {"description": "missing", "content": {"application/json": {"example": {"code": 404, "message": "no such pet"}}}},
            "default": {"description": "error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}},
          "patch": {"operationId": "updatePet", "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"200": {"description": "updated", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}},
          "delete": {"operationId": "deletePet", "deprecated": true, "responses": {"204": {"description": "gone"}}}
        },
        "/search": {"get": {"operationId": "search", "parameters": [
            {"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object", "properties": {"age": {"type": "integer"}}}},
            {"name": "ids", "in": "query", "style": "pipeDelimited", "explode": false, "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string", "pattern": "^[a-f0-9]{8}$"}}],
          "responses": {"200": {"description": "found", "content": {"application/json": {"schema": {"type": "object", "properties": {"count": {"type": "integer"}}}}}}}}}
      }
    }
    """#

    /// An OpenAPI 3.2 event stream: five ticks, each an event (`itemSchema`).
    package static let ticks = #"""
    {
      "openapi": "3.2.0",
      "info": {"title": "Ticks", "version": "1"},
      "paths": {
        "/ticks": {"get": {"operationId": "ticks", "responses": {"200": {"description": "ticks", "content": {"text/event-stream": {
          "itemSchema": {"type": "object", "required": ["event", "n"], "properties": {"event": {"type": "string"}, "n": {"type": "integer"}}},
          "example": [{"event": "tick", "n": 1}, {"event": "tick", "n": 2}, {"event": "tick", "n": 3}, {"event": "tick", "n": 4}, {"event": "tick", "n": 5}]
        }}}}}}
      }
    }
    """#
}
