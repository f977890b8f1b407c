#!/usr/bin/env python3
"""scripts/install-deps.sh on a pretend Mac (`make test`): stub `uname`, `brew`, `pkg-config` and `apt-get` on a
PATH of their own, so the Homebrew path runs here on Linux and nothing is installed."""
import os
import shutil
import stat
import subprocess
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "install-deps.sh")


class InstallDepsOnAMac(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="install-deps-")
        self.bin = os.path.join(self.work, "bin")
        self.state = os.path.join(self.work, "state")
        os.makedirs(self.bin)
        os.makedirs(self.state)
        # The few real tools the script and the stubs call, and nothing else (no real apt-get, dpkg or brew).
        for tool in ("bash", "id", "cat", "touch", "printf"):
            os.symlink(shutil.which(tool), os.path.join(self.bin, tool))
        self.stub("uname", 'echo "$FAKE_SYSTEM"')
        self.stub("brew", 'echo "$*" >> "$STATE/brew.log"; [ "$1" = install ] && touch "$STATE/installed"; exit 0')
        self.stub("pkg-config", 'printf "%s\\n" "$PKG_CONFIG_PATH" >> "$STATE/pkg-config.log"; [ -f "$STATE/installed" ]')
        self.stub("apt-get", 'echo "$*" >> "$STATE/apt-get.log"; [ "$1" = install ] && touch "$STATE/installed"; exit 0')

    def tearDown(self):
        shutil.rmtree(self.work)

    def stub(self, name, body):
        path = os.path.join(self.bin, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)

    def remove(self, name):
        os.remove(os.path.join(self.bin, name))

    def run_script(self, system, *arguments):
        env = {"PATH": self.bin, "STATE": self.state, "FAKE_SYSTEM": system, "HOME": self.work}
        return subprocess.run([shutil.which("bash"), SCRIPT, *arguments], env=env, capture_output=True, text=True)

    def log(self, name):
        path = os.path.join(self.state, name + ".log")
        if not os.path.exists(path):
            return ""
        with open(path, encoding="utf-8") as f:
            return f.read()

    def test_darwin_installs_with_brew_and_looks_in_both_homebrew_prefixes(self):
        result = self.run_script("Darwin")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.log("brew"), "install libevent openssl@3 libfyaml pkg-config\n")
        self.assertEqual(self.log("apt-get"), "")
        searched = self.log("pkg-config").splitlines()[-1].split(":")
        for folder in ("/opt/homebrew/lib/pkgconfig", "/opt/homebrew/opt/openssl@3/lib/pkgconfig",
                       "/usr/local/lib/pkgconfig", "/usr/local/opt/openssl@3/lib/pkgconfig"):
            self.assertIn(folder, searched)

    def test_darwin_with_everything_found_installs_nothing(self):
        open(os.path.join(self.state, "installed"), "w").close()
        result = self.run_script("Darwin")
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        self.assertEqual(self.log("brew"), "")

    def test_darwin_without_brew_says_what_to_install(self):
        self.remove("brew")
        result = self.run_script("Darwin")
        self.assertEqual(result.returncode, 1)
        self.assertIn("brew install libevent openssl@3 libfyaml pkg-config", result.stderr)
        self.assertEqual(self.log("apt-get"), "")

    def test_darwin_tools_go_through_brew(self):
        self.remove("apt-get")
        result = self.run_script("Darwin", "wrk")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.log("brew"), "install wrk\n")

    def test_linux_still_uses_apt_get(self):
        result = self.run_script("Linux")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("install -y -qq libevent-dev libssl-dev libfyaml-dev pkg-config", self.log("apt-get"))
        self.assertEqual(self.log("brew"), "")
        self.assertNotIn("/opt/homebrew", self.log("pkg-config"))


if __name__ == "__main__":
    unittest.main()
