"""The shipped nginx configuration (deploy/nginx.conf, shown in docs/deploy.md) passes the real ``nginx -t``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def test_the_nginx_config_is_valid() -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"  # run-tests installs Debian's nginx
    result = subprocess.run([nginx, "-t", "-c", str(CONFIG)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_the_docs_show_the_shipped_config() -> None:
    deploy = (CONFIG.parents[1] / "docs" / "deploy.md").read_text()
    assert "deploy/nginx.conf" in deploy and "proxy_set_header Upgrade $http_upgrade;" in deploy
