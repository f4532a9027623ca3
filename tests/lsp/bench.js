// Latency from a change to its diagnostics in `launchlint server` (a benchmark, not a test): opens a bound launch
// (examples/7b-lora-shard-grad-op), then toggles checkpointing in the unsaved script N times and measures how long
// each FSDP001 flip takes to be published, with no debounce.
// Usage: node tests/lsp/bench.js LAUNCHLINT_BINARY REPO_ROOT [N]
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');

const [binary, repo, count = '50'] = process.argv.slice(2);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'launchlint-bench-'));
fs.cpSync(path.join(repo, 'examples/7b-lora-shard-grad-op'), root, { recursive: true });
const uri = (f) => pathToFileURL(path.join(root, f)).href;

(async () => {
  const proc = spawn(binary, ['server', '--debounce-ms', '0'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout),
    new rpc.StreamMessageWriter(proc.stdin));
  let waiting = null;
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
    if (waiting && p.uri === uri('fsdp.yaml') && waiting.want === p.diagnostics.some((d) => d.code === 'FSDP001'))
      waiting.resolve();
  });
  conn.listen();
  await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(root).href,
    capabilities: {}, workspaceFolders: null });
  conn.sendNotification(rpc.InitializedNotification.type, {});
  const train = fs.readFileSync(path.join(root, 'train.py'), 'utf8');
  const on = train.replace('    model = get_peft_model(model, lora)\n',
    '    model.gradient_checkpointing_enable()\n    model = get_peft_model(model, lora)\n');
  for (const f of ['fsdp.yaml', 'launch.sh', 'train.py']) {
    conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri: uri(f),
      languageId: 'plaintext', version: 1, text: fs.readFileSync(path.join(root, f), 'utf8') } });
  }
  const times = [];
  for (let i = 0; i < Number(count); ++i) {
    const checkpointing = i % 2 === 0;
    const done = new Promise((resolve) => { waiting = { want: !checkpointing, resolve }; });
    const t0 = process.hrtime.bigint();
    conn.sendNotification(rpc.DidChangeTextDocumentNotification.type,
      { textDocument: { uri: uri('train.py'), version: i + 2 }, contentChanges: [{ text: checkpointing ? on : train }] });
    await done;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const q = (f) => times[Math.min(times.length - 1, Math.floor(f * times.length))].toFixed(1);
  console.log(`change -> diagnostics over ${times.length} changes: median ${q(0.5)} ms, p90 ${q(0.9)} ms, ` +
    `max ${q(1)} ms (no debounce)`);
  await conn.sendRequest(rpc.ShutdownRequest.type);
  conn.sendNotification(rpc.ExitNotification.type);
  fs.rmSync(root, { recursive: true, force: true });
})().catch((e) => { console.error(e); process.exit(1); });
