"""A Hugging Face Hub on 127.0.0.1 for `mol models pull` tests: the API, resolve URLs, Range requests.

Real HTTP (http.server in a thread), speaking the parts of the Hub protocol huggingface_hub uses:
GET /api/models/ORG/REPO (siblings), HEAD/GET /ORG/REPO/resolve/REV/FILE with X-Repo-Commit,
ETag/X-Linked-Etag (the LFS sha256) and X-Linked-Size, and `Range: bytes=N-` answered with 206.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class Hub:
    files: dict[str, dict[str, bytes]]  # repo -> {file name: bytes}
    drop_first_get_after: int | None = None  # close the first download after this many bytes (to test resume)
    lie_sha: bool = False  # advertise a sha256 the bytes do not have
    lie_size: int | None = None  # advertise this size (to test the disk-space check)
    requests: list[tuple[str, str, str | None]] = field(default_factory=list)  # (method, path, Range header)

    def start(self) -> str:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def do_HEAD(self) -> None:
                self._serve(body=False)

            def do_GET(self) -> None:
                self._serve(body=True)

            def _not_found(self, code: str) -> None:
                self.send_response(404)
                self.send_header("X-Error-Code", code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _serve(self, *, body: bool) -> None:
                hub.requests.append((self.command, self.path, self.headers.get("Range")))
                parts = self.path.split("?")[0].strip("/").split("/")
                if parts[:2] == ["api", "models"]:
                    repo = "/".join(parts[2:4])
                    if repo not in hub.files:
                        return self._not_found("RepoNotFound")
                    data = json.dumps({"id": repo, "sha": COMMIT, "siblings": [{"rfilename": f} for f in hub.files[repo]]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data if body else b"")
                    return
                if len(parts) < 5 or parts[2] != "resolve":
                    return self._not_found("EntryNotFound")
                repo, name = "/".join(parts[:2]), "/".join(parts[4:])
                if repo not in hub.files:
                    return self._not_found("RepoNotFound")
                if name not in hub.files[repo]:
                    return self._not_found("EntryNotFound")
                data = hub.files[repo][name]
                sha = hashlib.sha256(data + (b"x" if hub.lie_sha else b"")).hexdigest()
                start = int(self.headers["Range"].split("=")[1].split("-")[0]) if self.headers.get("Range") else 0
                self.send_response(206 if start else 200)
                for key, value in (("X-Repo-Commit", COMMIT), ("ETag", f'"{sha}"'), ("X-Linked-Etag", f'"{sha}"'),
                                   ("X-Linked-Size", str(hub.lie_size or len(data))), ("Accept-Ranges", "bytes"),
                                   ("Content-Length", str(len(data) - start))):
                    self.send_header(key, value)
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                if not body:
                    return
                cut = hub.drop_first_get_after
                if cut is not None and not start:
                    hub.drop_first_get_after = None
                    self.wfile.write(data[:cut])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.wfile.write(data[start:])

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
