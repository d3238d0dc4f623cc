#!/usr/bin/env bash
# Installs what the interop suite (Tests/InteropTests) starts: nginx, squid, dante, htpasswd and
# stress-ng from Debian, and the pinned Python servers (websockets, httpbin under gunicorn,
# sse-starlette under uvicorn) in .interop/venv. Idempotent; a second run only checks.
# `.ci/run` calls it before `swift test`; without it the interop checks skip, naming what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=Tests/InteropTests/Servers/requirements.txt
venv=.interop/venv
stamp="$venv/.requirements"

sudo=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo"; fi

apt_install() {
    $sudo apt-get install -y --no-install-recommends "$@" \
        || { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "$@"; }
}

# Debian's packages, when one of their programs is missing.
if [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null 2>&1; then
    missing=0
    for program in nginx squid danted htpasswd stress-ng; do
        if ! command -v "$program" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$program" ]; then missing=1; fi
    done
    if [ "$missing" -eq 1 ]; then
        echo "== apt-get install nginx-light squid dante-server apache2-utils stress-ng"
        apt_install nginx-light squid dante-server apache2-utils stress-ng \
            || echo "warning: the interop servers could not be installed: their checks will say they are missing"
    fi
fi

# The Python servers, in a virtual environment of their own, reinstalled when the pins change.
python=python3
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; fi
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$requirements" "$stamp"; then
    exit 0
fi
echo "== $venv: pip install -r $requirements"
rm -rf "$venv"
mkdir -p .interop
if ! "$python" -m venv "$venv" 2>/dev/null; then
    rm -rf "$venv"
    if command -v apt-get >/dev/null 2>&1; then apt_install python3-venv; fi
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$requirements"
"$venv/bin/python" -m pip check
cp "$requirements" "$stamp"
