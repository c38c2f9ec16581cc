#!/bin/bash
# Starts kcat's mock cluster, reads the bootstrap address it prints and forwards 127.0.0.1:9092 to it.
# Ends when either process does; SIGTERM ends both.
set -euo pipefail
coproc MOCK { exec kcat -X test.mock.num.brokers=1 -d mock -C -t __mock_keepalive -b mock:1 2>&1 >/dev/null; }
# a plain descriptor: a coproc's own are closed in subshells, and the reader below runs in one
exec 3<&"${MOCK[0]}"
addr=""
while IFS= read -r -t 10 line <&3; do
  echo "$line"
  if [[ $line =~ bootstrap.servers=([0-9.:,]+) ]]; then addr=${BASH_REMATCH[1]%%,*}; break; fi
done
[ -n "$addr" ] || { echo "kcat mock cluster printed no bootstrap.servers" >&2; exit 1; }
socat TCP-LISTEN:9092,bind=127.0.0.1,fork,reuseaddr "TCP:$addr" &
socat_pid=$!
trap 'kill $MOCK_PID $socat_pid 2>/dev/null; wait; exit 0' TERM INT
cat <&3 >/dev/null & # keep reading its debug output: on a full pipe the mock stops answering
wait -n $MOCK_PID $socat_pid
