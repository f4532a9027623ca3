#!/usr/bin/env bash
# `launchlint server` on bad input: invalid JSON, a request before initialize, an unknown method, a request with
# missing parameters, a position far outside the file, a method that is no string, JSON nested 100,000 deep (the id,
# the parameters), then a header it cannot read: each gets an error reply (or
# is ignored) and the server never crashes or hangs; without shutdown it exits 1 at end of input.
set -euo pipefail
bin="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf 'distributed_type: FSDP\nnum_processes: 8\n' >"$tmp/a.yaml"
python3 - "$tmp" >"$tmp/in.bin" <<'PY'
import json, sys
root = sys.argv[1]
def frame(body):
    b = body.encode() if isinstance(body, str) else body
    return b"Content-Length: %d\r\n\r\n" % len(b) + b
uri = "file://" + root + "/a.yaml"
out = b""
out += frame('{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}')        # before initialize
out += frame('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"rootUri":"file://%s","capabilities":{}}}' % root)
out += frame('{not json')
out += frame('[1,2,3]')
out += frame('{"jsonrpc":"2.0","id":3,"method":"no/such/method"}')
out += frame('{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"%s"}}}' % uri)
out += frame(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": uri, "languageId": "yaml", "version": 1, "text": "distributed_type: FSDP\nnum_processes: 8\n\xe9\U0001F680: [\n"}}}))
out += frame('{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":{"textDocument":{"uri":"%s"},"position":{"line":999,"character":-5}}}' % uri)
out += frame('{"jsonrpc":"2.0","id":6,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"%s"},"range":{"start":{"line":0,"character":0},"end":{"line":99,"character":0}},"context":{"diagnostics":[]}}}' % uri)
out += frame('{"jsonrpc":"2.0","id":7,"method":7}')                                       # a method that is no string
D = 100000                                                                                  # nested deeper than 256
out += frame('{"jsonrpc":"2.0","id":' + "[" * D + "]" * D + ',"method":"shutdown"}')
out += frame('{"jsonrpc":"2.0","method":"initialized","params":{"a":' + "[" * D + "]" * D + '}}')
out += frame('{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":"%s"},"position":{"line":0,"character":0}}}' % uri)
out += b"Content-Length: banana\r\n\r\n{}"
sys.stdout.buffer.write(out)
PY
status=0
timeout 20 "$bin" server <"$tmp/in.bin" >"$tmp/out.bin" || status=$?
[[ $status -eq 1 ]] || { echo "lsp_robustness: exit $status, expected 1 (end of input without shutdown)"; exit 1; }
python3 - "$tmp/out.bin" <<'PY'
import json, sys
data = open(sys.argv[1], "rb").read()
msgs = []
while data:
    head, _, rest = data.partition(b"\r\n\r\n")
    n = int(head.split(b":")[1])
    msgs.append(json.loads(rest[:n]))
    data = rest[n:]
by_id = {m.get("id"): m for m in msgs if "id" in m}
assert by_id[1]["error"]["code"] == -32002, by_id[1]
assert by_id[2]["result"]["capabilities"]["hoverProvider"] is True
assert any(m.get("error", {}).get("code") == -32700 for m in msgs), "no parse error reply"
assert any(m.get("error", {}).get("code") == -32600 for m in msgs if m.get("id") is None), "no invalid request reply"
assert by_id[3]["error"]["code"] == -32601
assert "error" in by_id[4] or by_id[4]["result"] is None
assert "result" in by_id[5]
assert isinstance(by_id[6]["result"], list)
assert by_id[7]["error"]["code"] == -32600, by_id[7]
deep = [m for m in msgs if "nested deeper" in m.get("error", {}).get("message", "")]
assert len(deep) == 2, deep
assert "result" in by_id[8], "the server stopped answering after deep messages"
pubs = [m for m in msgs if m.get("method") == "textDocument/publishDiagnostics"]
assert any(any(d["code"] == "LL001" for d in p["params"]["diagnostics"]) for p in pubs), "no parse error finding"
print("lsp_robustness: ok (%d messages)" % len(msgs))
PY
