// Finding the launchlint binary (no `vscode` import, so it can be tested with plain node).
import * as fs from 'fs';
import * as path from 'path';

/** The binary: the `launchlint.path` setting (a workspace-relative path is resolved against the first folder), or
 * `launchlint` on PATH. */
export function findBinary(setting: string, envPath: string | undefined, workspace: string | undefined,
                           isWindows = process.platform === 'win32'): string | undefined {
  if (setting) {
    const p = path.isAbsolute(setting) || !workspace ? setting : path.join(workspace, setting);
    return fs.existsSync(p) ? p : undefined;
  }
  const names = isWindows ? ['launchlint.exe', 'launchlint'] : ['launchlint'];
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
