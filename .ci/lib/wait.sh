# The .ci scripts' one way to wait for something; sourced. A wait that times out fails (returns
# 1 after saying on stderr what it waited for), so a script under `set -e` stops there instead of
# measuring a server that never started.

# wait_for SECONDS WHAT COMMAND [ARGS...]: runs COMMAND every tenth of a second until it succeeds.
# Plain sh (h2spec.sh is one): the limit is counted in tenths.
wait_for() {
  local limit=$1 what=$2 tenths
  shift 2
  tenths=$((limit * 10))
  until "$@" 2>/dev/null; do
    tenths=$((tenths - 1))
    if [ "$tenths" -le 0 ]; then
      echo "timed out after ${limit} s waiting for $what" >&2
      return 1
    fi
    sleep 0.1
  done
}

# log_says FILE TEXT: FILE holds a line with TEXT (a server's "listening on" line).
log_says() { grep -q -- "$2" "$1"; }

# port_open PORT: something accepts TCP connections on 127.0.0.1:PORT (bash: /dev/tcp).
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# file_filled FILE: FILE exists and is not empty.
file_filled() { [ -s "$1" ]; }

# socket_exists PATH: a Unix socket is at PATH.
socket_exists() { [ -S "$1" ]; }
