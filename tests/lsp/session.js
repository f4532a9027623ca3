// Scripted LSP sessions against `launchlint server`, driven by the JSON-RPC client library VS Code's own client
// uses (vscode-languageserver-protocol). Usage: node session.js LAUNCHLINT_BINARY REPO_ROOT
'use strict';

const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');
const { TextDocument } = require('vscode-languageserver-textdocument');

const [binary, repo] = process.argv.slice(2);
if (!binary || !repo) {
  console.error('usage: node session.js LAUNCHLINT_BINARY REPO_ROOT');
  process.exit(2);
}

/// A copy of a repository folder in a fresh temporary folder (the sessions never write, but must not depend on it).
function copyCase(relative) {
  const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'launchlint-lsp-'));
  fs.cpSync(path.join(repo, relative), dest, { recursive: true });
  return dest;
}

const uriOf = (file) => pathToFileURL(file).href;

/// The LSP position of the first `needle` in `text` (+ `offset` characters); UTF-16 columns, as the client uses.
function positionOf(text, needle, offset = 0) {
  const at = text.indexOf(needle);
  assert.notEqual(at, -1, `'${needle}' not found`);
  const before = text.slice(0, at + offset);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

class Session {
  constructor(root) {
    this.root = root;
    this.proc = spawn(binary, ['server', '--debounce-ms', '50'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => {
      if (process.env.LSP_DEBUG) console.log(`server exited: code ${code} signal ${signal}`);
      resolve(code);
    }));
    this.conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(this.proc.stdout),
      new rpc.StreamMessageWriter(this.proc.stdin));
    this.diagnostics = new Map();  // uri -> latest diagnostics
    this.waiters = [];
    this.conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      this.waiters = this.waiters.filter((w) => !w.check());
    });
    this.conn.listen();
    this.versions = new Map();
  }

  async start() {
    if (process.env.LSP_DEBUG) console.log('start: initialize');
    const result = await within(this.conn.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid, rootUri: uriOf(this.root), capabilities: {}, workspaceFolders: null,
    }), 'initialize');
    assert.equal(result.serverInfo.name, 'launchlint');
    assert.equal(result.capabilities.hoverProvider, true);
    await this.conn.sendNotification(rpc.InitializedNotification.type, {});
  }

  /// Resolves when `predicate(diagnostics of uri)` holds for the latest publication (checked on each one).
  waitFor(uri, predicate, what, ms = 10000) {
    return new Promise((resolve, reject) => {
      const w = {
        check: () => {
          const d = this.diagnostics.get(uri);
          if (d === undefined || !predicate(d)) return false;
          clearTimeout(w.timer);
          resolve(d);
          return true;
        },
      };
      w.timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; last: ` +
        JSON.stringify(this.diagnostics.get(uri)))), ms);
      if (!w.check()) this.waiters.push(w);
    });
  }

  open(file, languageId) {
    const text = fs.readFileSync(file, 'utf8');
    this.versions.set(uriOf(file), 1);
    this.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type,
      { textDocument: { uri: uriOf(file), languageId, version: 1, text } });
    return text;
  }

  change(file, text) {
    const uri = uriOf(file);
    const version = this.versions.get(uri) + 1;
    this.versions.set(uri, version);
    this.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type,
      { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  hover(file, position) {
    return within(this.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: uriOf(file) }, position }),
      'hover');
  }

  async stop() {
    if (process.env.LSP_DEBUG) console.log('stop: shutdown');
    await within(this.conn.sendRequest(rpc.ShutdownRequest.type), 'shutdown');
    if (process.env.LSP_DEBUG) console.log('stop: exit');
    await this.conn.sendNotification(rpc.ExitNotification.type);
    const code = await within(this.exited, 'exit');
    this.conn.dispose();
    assert.equal(code, 0, 'server exit code after shutdown');
  }
}

const codes = (diags) => diags.map((d) => d.code);

/// A request that fails after `ms` instead of hanging the test.
function within(promise, what, ms = 15000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function boundLaunch() {
  // examples/7b-lora-shard-grad-op: SHARD_GRAD_OP in the config, no checkpointing in the script.
  const root = copyCase('examples/7b-lora-shard-grad-op');
  const yaml = path.join(root, 'fsdp.yaml');
  const script = path.join(root, 'launch.sh');
  const train = path.join(root, 'train.py');
  const s = new Session(root);
  await s.start();
  const yamlText = s.open(yaml, 'yaml');
  s.open(script, 'shellscript');
  const diags = await s.waitFor(uriOf(yaml), (d) => codes(d).includes('FSDP001'), 'FSDP001 on fsdp.yaml');
  const fsdp001 = diags.find((d) => d.code === 'FSDP001');
  assert.deepEqual(fsdp001.range.start, positionOf(yamlText, 'fsdp_sharding_strategy: SHARD_GRAD_OP', 24));
  assert.equal(fsdp001.severity, 2);
  assert.equal(fsdp001.source, 'launchlint');
  // The launch command is a related location (the finding is about the launch, not the file alone).
  assert.ok((fsdp001.relatedInformation || []).some((r) => r.location.uri === uriOf(script)),
    'FSDP001 points at the launch command');

  // Enable checkpointing in the unsaved script: FSDP001 disappears from the config, the disk is unchanged.
  const onDisk = fs.readFileSync(train, 'utf8');
  const trainText = s.open(train, 'python');
  const edited = trainText.replace('    model = get_peft_model(model, lora)\n',
    '    model.gradient_checkpointing_enable()\n    model = get_peft_model(model, lora)\n');
  assert.notEqual(edited, trainText);
  const started = process.hrtime.bigint();
  s.change(train, edited);
  await s.waitFor(uriOf(yaml), (d) => !codes(d).includes('FSDP001'), 'FSDP001 to disappear after the edit');
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`lsp: change -> diagnostics in ${ms.toFixed(1)} ms (50 ms debounce included)`);
  assert.equal(fs.readFileSync(train, 'utf8'), onDisk, 'the script on disk was not written');

  // Undo the edit: the finding comes back.
  s.change(train, trainText);
  await s.waitFor(uriOf(yaml), (d) => codes(d).includes('FSDP001'), 'FSDP001 to come back');
  await s.stop();
  console.log('lsp: bound launch diagnostics ok');
}

async function hoverAndDefinition() {
  // fixtures/overridden-setting/bad_plugin_and_env: the script's plugin (NO_SHARD) beats the config (SHARD_GRAD_OP).
  const root = copyCase('fixtures/overridden-setting/bad_plugin_and_env');
  const yaml = path.join(root, 'fsdp.yaml');
  const train = path.join(root, 'train.py');
  const s = new Session(root);
  await s.start();
  const text = s.open(yaml, 'yaml');
  await s.waitFor(uriOf(yaml), (d) => codes(d).includes('FSDP002'), 'FSDP002 on fsdp.yaml');

  const onKey = positionOf(text, 'fsdp_sharding_strategy', 5);
  const hover = await s.hover(yaml, onKey);
  assert.ok(hover, 'a hover on the key');
  const md = hover.contents.value;
  console.log('lsp: hover on fsdp_sharding_strategy:\n' + md.replace(/^/gm, '    '));
  assert.match(md, /\*\*fsdp\.sharding_strategy\*\* = `'NO_SHARD'`/);
  assert.match(md, /decided by `FullyShardedDataParallelPlugin\(sharding_strategy=\)` at train\.py:4:41/);
  assert.match(md, /overrides `'SHARD_GRAD_OP'` at `fsdp_config\.fsdp_sharding_strategy` at fsdp\.yaml:4:27/);
  assert.match(md, /because a FullyShardedDataParallelPlugin field set in the script beats/);

  // Go to definition on the key: the winning assignment in the script.
  const def = await s.conn.sendRequest(rpc.DefinitionRequest.type,
    { textDocument: { uri: uriOf(yaml) }, position: onKey });
  assert.equal(def.length, 1);
  assert.equal(def[0].uri, uriOf(train));
  const trainText = fs.readFileSync(train, 'utf8');
  assert.deepEqual(def[0].range.start, positionOf(trainText, 'sharding_strategy='));

  // Hover on the keyword argument in the script: the same effective value, decided right there.
  s.open(train, 'python');
  const onKeyword = await s.hover(train, positionOf(trainText, 'sharding_strategy=', 3));
  assert.match(onKeyword.contents.value, /\*\*fsdp\.sharding_strategy\*\* = `'NO_SHARD'`/);
  assert.match(onKeyword.contents.value, /overrides `'SHARD_GRAD_OP'` at `fsdp_config\.fsdp_sharding_strategy`/);

  // Hover on the finding: the rule's summary; on a rule code in a comment: its documentation page.
  const onFinding = await s.hover(yaml, positionOf(text, 'SHARD_GRAD_OP', 2));
  assert.match(onFinding.contents.value, /\*\*FSDP002\*\* overridden-setting: /);
  const withCode = text.replace('# expect: FSDP002', '# launchlint: ignore[FSDP001] not this one');
  s.change(yaml, withCode);
  const onCode = await s.hover(yaml, positionOf(withCode, 'FSDP001', 3));
  assert.match(onCode.contents.value, /^# FSDP001 shard-grad-op-without-activation-checkpointing/m);
  await s.stop();
  console.log('lsp: hover, definition, rule documentation ok');
}

async function hoverOnFlag() {
  // fixtures/overridden-setting/ok_flag_override: `--num_processes 16` on the command line beats the config's 8.
  const root = copyCase('fixtures/overridden-setting/ok_flag_override');
  const script = path.join(root, 'launch.sh');
  const s = new Session(root);
  await s.start();
  const text = s.open(script, 'shellscript');
  const md = (await s.hover(script, positionOf(text, '--num_processes', 4))).contents.value;
  assert.match(md, /\*\*num_processes\*\* = `16`/);
  assert.match(md, /decided by `--num_processes` at launch\.sh:3:43 \(launch flag\)/);
  assert.match(md, /overrides `8` at `num_processes` at fsdp\.yaml:2:16 \(config file\)/);
  assert.match(md, /because an `accelerate launch` flag beats the config file/);
  const def = await s.conn.sendRequest(rpc.DefinitionRequest.type,
    { textDocument: { uri: uriOf(path.join(root, 'fsdp.yaml')) },
      position: positionOf(fs.readFileSync(path.join(root, 'fsdp.yaml'), 'utf8'), 'num_processes') });
  assert.equal(def[0].uri, uriOf(script), 'definition of the config key: the winning flag');
  await s.stop();
  console.log('lsp: hover on a launch flag ok');
}

async function projectConfig() {
  // The server reads the project's launchlint.toml like the CLI: an ignored rule is not published.
  const root = copyCase('examples/7b-lora-shard-grad-op');
  fs.writeFileSync(path.join(root, 'launchlint.toml'), 'ignore = ["FSDP001"]\n');
  const yaml = path.join(root, 'fsdp.yaml');
  const s = new Session(root);
  await s.start();
  s.open(yaml, 'yaml');
  await s.waitFor(uriOf(yaml), (d) => d.length === 0, 'no findings with FSDP001 ignored');
  await s.stop();
  console.log('lsp: project configuration ok');
}

async function codeAction() {
  const root = copyCase('fixtures/unknown-fsdp-config-key');
  const yaml = path.join(root, 'bad_typos.yaml');
  const s = new Session(root);
  await s.start();
  const text = s.open(yaml, 'yaml');
  const before = await s.waitFor(uriOf(yaml), (d) => codes(d).filter((c) => c === 'ACC008').length === 3,
    'three ACC008');
  const typo = before.find((d) => d.message.includes('fsdp_sharding_stratgy'));
  const actions = await s.conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: uriOf(yaml) }, range: typo.range, context: { diagnostics: [typo] },
  });
  const rename = actions.find((a) => a.kind === 'quickfix');
  assert.ok(rename, 'a quick fix');
  assert.equal(rename.title, 'launchlint: Rename `fsdp_sharding_stratgy` to `fsdp_sharding_strategy`');
  assert.equal(rename.isPreferred, true);
  assert.ok(actions.some((a) => a.kind === 'source.fixAll.launchlint'), 'a fix-all action');

  // Apply the workspace edit to the buffer, as the editor does, and send the change.
  let doc = TextDocument.create(uriOf(yaml), 'yaml', 1, text);
  doc = TextDocument.update(doc, [{ text: TextDocument.applyEdits(doc, rename.edit.changes[uriOf(yaml)]) }], 2);
  const fixed = doc.getText();
  assert.equal(fixed, text.replace('fsdp_sharding_stratgy:', 'fsdp_sharding_strategy:'));
  s.change(yaml, fixed);
  const after = await s.waitFor(uriOf(yaml), (d) => codes(d).filter((c) => c === 'ACC008').length === 2,
    'two ACC008 after the fix');
  assert.ok(!after.some((d) => d.message.includes('fsdp_sharding_stratgy')));
  assert.equal(fs.readFileSync(yaml, 'utf8'), text, 'the file on disk was not written');
  await s.stop();
  console.log('lsp: code action ok');
}

(async () => {
  const only = process.env.LSP_ONLY;
  if (!only || only === 'bound') await boundLaunch();
  if (!only || only === 'hover') await hoverAndDefinition();
  if (!only || only === 'flag') await hoverOnFlag();
  if (!only || only === 'config') await projectConfig();
  if (!only || only === 'action') await codeAction();
  console.log('lsp: all sessions passed');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
