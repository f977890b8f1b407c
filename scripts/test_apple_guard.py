#!/usr/bin/env python3
"""scripts/apple_guard.py on planted violations: each kind fails it, and its guarded form passes (`make test`)."""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import apple_guard  # noqa: E402


def target(name, deps=(), kind="regular"):
    return {"name": name, "type": kind, "dependencies": [{"byName": [d, None]} for d in deps]}


class PlantedViolations(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="apple-guard-")
        # App: a library an app links; Server: Linux and macOS only; AppTesting: test-only; CLib: C.
        self.package = {
            "targets": [target("App"), target("Server", ["CLib"]), target("AppTesting", ["App"]),
                        target("CLib"), target("AppTests", ["App"], kind="test")],
            "products": [
                {"name": "App", "targets": ["App"], "type": {"library": ["automatic"]}},
                {"name": "Understudy", "targets": ["Server"], "type": {"library": ["automatic"]}},
                {"name": "UnderstudyControlTesting", "targets": ["AppTesting"], "type": {"library": ["automatic"]}},
            ],
        }
        self.write("Sources/App/App.swift", "import Foundation\n")
        self.write("Sources/Server/Server.swift", "#if canImport(Glibc)\nimport Glibc\n#endif\n")
        self.write("Sources/AppTesting/Trait.swift", "import Testing\nimport XCTest\n")
        self.write("Sources/CLib/lib.c", "int f(void) { return 0; }\n")
        self.write("Tests/AppTests/AppTests.swift", "import Testing\n")

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def problems(self):
        return apple_guard.check(self.root, self.package)

    def test_the_clean_package_passes(self):
        self.assertEqual(self.problems(), [])

    def test_an_unguarded_glibc_or_foundation_networking_import_fails(self):
        self.write("Sources/Server/Server.swift", "import Glibc\n")
        self.write("Sources/App/Net.swift", "import Foundation\nimport FoundationNetworking\n")
        found = self.problems()
        self.assertEqual(len(found), 2, found)
        self.assertIn("Sources/Server/Server.swift:1: imports: `import Glibc`", found[0] + found[1])
        self.assertTrue(any("FoundationNetworking" in p and "Net.swift:2" in p for p in found), found)

    def test_a_guard_in_its_else_branch_is_no_guard(self):
        self.write("Sources/App/Net.swift", "#if canImport(Darwin)\n#else\nimport FoundationNetworking\n#endif\n")
        self.assertEqual(self.problems(), [])
        self.write("Sources/App/Net.swift", "#if canImport(FoundationNetworking)\n#else\nimport FoundationNetworking\n#endif\n")
        self.assertEqual(len(self.problems()), 1)

    def test_testing_or_xctest_in_an_app_library_fails_even_guarded(self):
        self.write("Sources/App/Helper.swift", "#if canImport(XCTest)\nimport XCTest\n#endif\nimport Testing\n")
        found = self.problems()
        self.assertEqual(len(found), 2, found)
        self.assertTrue(all("a target an app may link (App)" in p for p in found), found)

    def test_an_app_product_reaching_a_c_target_fails(self):
        self.package["targets"][0]["dependencies"] = [{"byName": ["Server", None]}]
        found = self.problems()
        self.assertEqual(found, ["C: App reaches the C target CLib, which an Apple platform cannot link from an app"])

    def test_a_c_dependency_only_on_linux_passes(self):
        self.package["targets"][0]["dependencies"] = [{"byName": ["CLib", {"platformNames": ["linux"]}]}]
        self.assertEqual(self.problems(), [])
        self.package["targets"][0]["dependencies"] = [{"byName": ["CLib", {"platformNames": ["linux", "ios"]}]}]
        self.assertEqual(len(self.problems()), 1)

    def test_an_api_above_the_floor_fails(self):
        self.write("Sources/App/Counter.swift", "import Synchronization\nlet lock = Mutex<Int>(0)\n")
        self.write("Tests/AppTests/Model.swift", "import Observation\n@Observable final class Model {}\n")
        found = self.problems()
        self.assertEqual(len(found), 4, found)
        self.assertTrue(all("API floor" in p for p in found), found)
        self.assertIn("needs iOS 18", found[0])

    def test_an_api_above_the_floor_passes_off_apple_or_with_available(self):
        self.write("Sources/App/Counter.swift", "#if os(Linux)\nimport Synchronization\n#endif\n")
        self.write("Sources/App/Model.swift", "@available(iOS 17, macOS 14, *)\n@Observable final class Model {}\n")
        self.write("Sources/App/Comment.swift", "// @Observable needs iOS 17\n")
        self.assertEqual(self.problems(), [])

    def test_a_wrapped_typed_throws_function_type_fails_and_a_plain_one_passes(self):
        self.write("Sources/App/Client.swift", "struct Client {\n"
                   "    var plain: @Sendable (Int) async throws(E) -> Int\n"
                   "    var optional: ((Int) throws(E) -> Void)?\n"
                   "    var handlers: [(Int) throws(E) -> Void]\n"
                   "}\n")
        found = self.problems()
        self.assertEqual([p.split(": ")[0] for p in found], ["Sources/App/Client.swift:3", "Sources/App/Client.swift:4"])

    def test_a_typed_throws_closure_literal_in_an_array_is_no_wrapped_type(self):
        self.write("Sources/App/Table.swift", "let table: [Row] = [Row(\"GET\") { router, _ throws(E) in router.reply }]\n"
                   "let other = [Row { x throws(E) -> Int in x }]\n")
        self.assertEqual(self.problems(), [])

    def test_the_command_exits_1_and_names_each_problem(self):
        self.write("Sources/App/Helper.swift", "import XCTest\n")
        dump = os.path.join(self.root, "dump.json")
        with open(dump, "w", encoding="utf-8") as f:
            json.dump(self.package, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = apple_guard.main(["--root", self.root, "--dump", dump])
        self.assertEqual(status, 1)
        self.assertIn("Sources/App/Helper.swift:1: imports", out.getvalue())


if __name__ == "__main__":
    unittest.main()
