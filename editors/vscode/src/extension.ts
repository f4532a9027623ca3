// The launchlint extension: starts `launchlint server` (LSP over stdio) for the launch files of the workspace.
import * as vscode from 'vscode';
import { findBinary } from './binary';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

async function start(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('launchlint');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const binary = findBinary(config.get<string>('path', ''), process.env.PATH, folder);
  if (!binary) {
    void vscode.window.showErrorMessage(
      'launchlint: no `launchlint` binary found. Put it on PATH or set `launchlint.path`.');
    return;
  }
  const args = ['server', ...config.get<string[]>('args', [])];
  const serverOptions: ServerOptions = {
    run: { command: binary, args, transport: TransportKind.stdio, options: { cwd: folder } },
    debug: { command: binary, args, transport: TransportKind.stdio, options: { cwd: folder } },
  };
  const clientOptions: LanguageClientOptions = {
    // The files launchlint reads: configs, scripts and launch scripts on disk.
    // TOML, sbatch scripts and Makefiles by name too: without a TOML extension VS Code has no `toml` language.
    documentSelector: [
      ...['yaml', 'json', 'jsonc', 'toml', 'python', 'shellscript', 'makefile'].map(
        (language) => ({ scheme: 'file', language })),
      { scheme: 'file', pattern: '**/*.{toml,slurm,sbatch}' },
    ],
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(
        '**/*.{yaml,yml,json,toml,py,sh,bash,slurm,sbatch}'),
    },
  };
  client = new LanguageClient('launchlint', 'launchlint', serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push(client);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(vscode.commands.registerCommand('launchlint.restart', async () => {
    if (client) {
      await client.stop();
      client = undefined;
    }
    await start(context);
  }));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(async (e) => {
    if (e.affectsConfiguration('launchlint.path') || e.affectsConfiguration('launchlint.args'))
      await vscode.commands.executeCommand('launchlint.restart');
  }));
  await start(context);
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
}
