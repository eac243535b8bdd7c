"""How the emulator runs for a test: the binary as a process of this machine, or the container
image (`APNS_EMULATOR_IMAGE`) through docker or podman. Either gives the ports, the CA to trust,
the log, a way to run the emulator's other commands (keys), and stop."""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import time
import urllib.request
from typing import Any, Dict, List, Optional

# The listeners' names in serve's ports file, and the image's fixed ports inside the container.
CONTAINER_PORTS = {"http2": 2197, "admin": 8197, "device": 5223, "gateway": 2195, "feedback": 2196, "channels": 2198, "webPush": 2199, "productionHttp2": 2297}


class EmulatorError(RuntimeError):
    """The emulator could not be started, or answered the admin API with an error."""


def find_binary() -> str:
    """`APNS_EMULATOR_BIN`, else `apns-emulator` on PATH."""
    given = os.environ.get("APNS_EMULATOR_BIN")
    if given:
        if not os.access(given, os.X_OK):
            raise EmulatorError(f"APNS_EMULATOR_BIN={given} is not an executable file")
        return given
    found = shutil.which("apns-emulator")
    if not found:
        raise EmulatorError("apns-emulator is not on PATH: install it (see the README's first line), set APNS_EMULATOR_BIN, "
                            "or set APNS_EMULATOR_IMAGE to run the container image")
    return found


def serve_arguments(options: Dict[str, Any]) -> List[str]:
    """`{"auth": "strict", "storage_policy": "all", "quiet": True}` as serve's flags."""
    arguments: List[str] = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            arguments.append(flag)
        elif value is False or value is None:
            continue
        else:
            arguments += [flag, str(value)]
    return arguments


class BinaryLauncher:
    """`apns-emulator serve --ephemeral` as a child process on free ports."""

    def __init__(self, binary: str, directory: str, options: Dict[str, Any], start_timeout: float):
        self.binary = binary
        self.ca_path = os.path.join(directory, "certs", "ca.pem")
        self.keys_directory = os.path.join(directory, "keys")
        self.log_path = os.path.join(directory, "serve.log")
        ports_file = os.path.join(directory, "ports.json")
        arguments = [
            binary, "serve", "--ephemeral", "--exit-on-stdin-close", "--ports-file", ports_file, "--certs-dir", os.path.join(directory, "certs"),
            "--keys", self.keys_directory, "--http2-port", "0", "--production-http2-port", "0", "--admin-port", "0", "--device-port", "0", "--gateway-port", "0",
            "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0",
        ] + serve_arguments(options)
        self._log = open(self.log_path, "wb")
        # Standard input is a pipe this process holds: the emulator ends with the test run, however it ends.
        self.process = subprocess.Popen(arguments, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.PIPE)
        deadline = time.monotonic() + start_timeout
        while not os.path.exists(ports_file):
            if self.process.poll() is not None:
                self._log.close()
                raise EmulatorError(f"apns-emulator exited with {self.process.returncode} before listening:\n{self.log()}")
            if time.monotonic() > deadline:
                self.stop()
                raise EmulatorError(f"apns-emulator did not listen within {start_timeout} s:\n{self.log()}")
            time.sleep(0.05)
        with open(ports_file) as f:
            found = json.load(f)
        self.host: str = found["host"]
        self.ports: Dict[str, int] = {name: found[name] for name in CONTAINER_PORTS}
        # The admin token: the one given (admin_token), or the one serve made when it listens beyond loopback.
        self.admin_token: Optional[str] = found.get("adminToken")

    def log(self) -> str:
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def command(self, arguments: List[str]) -> "subprocess.CompletedProcess[str]":
        """Runs another apns-emulator command (keys) beside the server."""
        return subprocess.run([self.binary] + arguments, capture_output=True, text=True)

    def fetch(self, path: str, local: str) -> str:
        """A file the emulator wrote, at a path this machine reads."""
        return path

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        if not self._log.closed:
            self._log.close()


class ContainerLauncher:
    """The image (`APNS_EMULATOR_IMAGE`) run with podman or docker (`APNS_EMULATOR_CONTAINER_CLI`
    to choose), every port published on a free port of 127.0.0.1; the CA comes from the admin
    API's `GET /ca.pem`; the admin token is one this launcher makes and passes in the environment."""

    def __init__(self, image: str, directory: str, options: Dict[str, Any], start_timeout: float):
        cli = os.environ.get("APNS_EMULATOR_CONTAINER_CLI") or shutil.which("podman") or shutil.which("docker")
        if not cli:
            raise EmulatorError(f"APNS_EMULATOR_IMAGE={image} needs docker or podman on PATH (or APNS_EMULATOR_CONTAINER_CLI)")
        self.cli = cli
        self.binary = None
        self.keys_directory = "/data/keys"
        self.ca_path = os.path.join(directory, "ca.pem")
        self.log_path = os.path.join(directory, "serve.log")
        self.host = "127.0.0.1"
        published: List[str] = []
        for port in CONTAINER_PORTS.values():
            published += ["-p", f"127.0.0.1::{port}"]
        options = dict(options)
        # The image listens on every interface, so its admin API asks for a token: this one, given
        # through the environment (not the command line), unless the test gives its own (admin_token).
        self.admin_token: Optional[str] = options.pop("admin_token", None) or secrets.token_urlsafe(32)
        published += ["-e", "APNS_EMULATOR_ADMIN_TOKEN"]
        seed = options.pop("seed", None)
        if seed is not None:
            # A copy anyone may read: the image runs as an ordinary user, and a seed may be private to this one.
            readable = os.path.join(directory, "seed-for-container")
            shutil.copyfile(seed, readable)
            os.chmod(readable, 0o644)
            published += ["-v", f"{readable}:/seed/seed.json:ro"]
            options["seed"] = "/seed/seed.json"
        run = subprocess.run(
            [cli, "run", "-d"] + published + [image, "serve", "--ephemeral", "--keys", self.keys_directory] + serve_arguments(options),
            capture_output=True, text=True, env={**os.environ, "APNS_EMULATOR_ADMIN_TOKEN": self.admin_token})
        if run.returncode != 0:
            raise EmulatorError(f"{cli} run {image} failed: {run.stderr or run.stdout}")
        self.container = run.stdout.strip().splitlines()[-1]
        try:
            self.ports = {name: self._published(port) for name, port in CONTAINER_PORTS.items()}
            self._wait_healthy(start_timeout)
            with urllib.request.urlopen(f"http://{self.host}:{self.ports['admin']}/ca.pem", timeout=10) as answer:
                with open(self.ca_path, "wb") as f:
                    f.write(answer.read())
        except BaseException:
            self.stop()
            raise

    def _published(self, port: int) -> int:
        answer = subprocess.run([self.cli, "port", self.container, f"{port}/tcp"], capture_output=True, text=True)
        line = answer.stdout.strip().splitlines()[0] if answer.stdout.strip() else ""
        if answer.returncode != 0 or ":" not in line:
            raise EmulatorError(f"{self.cli} port {self.container} {port}: {answer.stderr or answer.stdout}")
        return int(line.rsplit(":", 1)[1])

    def _wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        url = f"http://{self.host}:{self.ports['admin']}/readyz"
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            state = subprocess.run([self.cli, "inspect", "-f", "{{.State.Running}}", self.container], capture_output=True, text=True)
            if state.stdout.strip() == "false":
                raise EmulatorError(f"the container {self.container} ended before listening:\n{self.log()}")
            if time.monotonic() > deadline:
                raise EmulatorError(f"the container {self.container} did not answer {url} within {timeout} s:\n{self.log()}")
            time.sleep(0.1)

    def log(self) -> str:
        if getattr(self, "_stopped", False):
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return f.read()
        logs = subprocess.run([self.cli, "logs", self.container], capture_output=True)
        return (logs.stdout + logs.stderr).decode("utf-8", "replace")

    def command(self, arguments: List[str]) -> "subprocess.CompletedProcess[str]":
        return subprocess.run([self.cli, "exec", self.container, "apns-emulator"] + arguments, capture_output=True, text=True)

    def fetch(self, path: str, local: str) -> str:
        copied = subprocess.run([self.cli, "cp", f"{self.container}:{path}", local], capture_output=True, text=True)
        if copied.returncode != 0:
            raise EmulatorError(f"{self.cli} cp {path}: {copied.stderr}")
        return local

    def stop(self, timeout: float = 10.0) -> None:
        if getattr(self, "_stopped", False):
            return
        subprocess.run([self.cli, "stop", "-t", str(int(timeout)), self.container], capture_output=True)
        with open(self.log_path, "w") as f:
            f.write(self.log())
        self._stopped = True
        subprocess.run([self.cli, "rm", "-f", self.container], capture_output=True)
