import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the tests find real Zulip clients written in Python: the official bindings with
 * `zulip_bots` (python-zulip-api), the same bindings at 0.8.2 (zulip-terminal needs them older
 * than 0.9) and zulip-terminal. None of them is installable here or part of this repository.
 *
 * Each is a directory under PARLEY_ZULIP_SOURCES (default: <tmp>/parley-zulip-sources):
 * `python-zulip-api`, `python-zulip-api-0.8.2`, `zulip-terminal`. Where one is missing but a
 * git copy of its repository lies in PARLEY_ZULIP_MIRROR (default: `.mirror` beside this
 * repository, as the tool library's fetch leaves them, e.g. `zulip+zulip-terminal/repo`), it
 * is unpacked there from that copy. Otherwise the tests that need it step aside and say why.
 */

export const PYTHON = '/usr/bin/python3';

const here = path.dirname(fileURLToPath(import.meta.url));
const sourcesDir =
  process.env.PARLEY_ZULIP_SOURCES || path.join(os.tmpdir(), 'parley-zulip-sources');
const mirrorDir =
  process.env.PARLEY_ZULIP_MIRROR || path.resolve(here, '..', '..', '..', '.mirror');

const SOURCES = {
  bindings: { dir: 'python-zulip-api', repo: 'zulip+python-zulip-api', ref: 'HEAD' },
  bindings082: { dir: 'python-zulip-api-0.8.2', repo: 'zulip+python-zulip-api', ref: '0.8.2' },
  terminal: { dir: 'zulip-terminal', repo: 'zulip+zulip-terminal', ref: 'HEAD' },
} as const;
export type SourceName = keyof typeof SOURCES;

/** The directory of one source tree, unpacked from the mirror when needed; or why there is none. */
export function zulipSource(name: SourceName): { dir: string } | { reason: string } {
  const { dir, repo, ref } = SOURCES[name];
  const target = path.join(sourcesDir, dir);
  if (fs.existsSync(target)) return { dir: target };
  const gitDir = path.join(mirrorDir, repo, 'repo');
  if (!fs.existsSync(gitDir))
    return { reason: `${target} is absent and there is no git copy at ${gitDir}` };
  fs.mkdirSync(sourcesDir, { recursive: true });
  const partial = fs.mkdtempSync(path.join(sourcesDir, `.${dir}-`));
  const archive = spawnSync('git', ['--git-dir', gitDir, 'archive', ref], {
    maxBuffer: 512 * 1024 * 1024,
  });
  if (archive.status !== 0)
    return { reason: `git archive ${ref} of ${gitDir} failed: ${String(archive.stderr).trim()}` };
  const untar = spawnSync('tar', ['-x', '-C', partial], { input: archive.stdout });
  if (untar.status !== 0) return { reason: `unpacking ${gitDir} failed` };
  try {
    fs.renameSync(partial, target);
  } catch {
    // Another test file unpacked it first.
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return { dir: target };
}

/** Null when Debian's Python can import every module, else what is missing. */
export function missingPythonModules(modules: string[], pythonPath: string[]): string | null {
  if (!fs.existsSync(PYTHON)) return `${PYTHON} is missing`;
  const probe = spawnSync(PYTHON, ['-c', modules.map((m) => `import ${m}`).join('\n')], {
    env: { ...process.env, PYTHONPATH: pythonPath.join(':') },
    encoding: 'utf8',
  });
  if (probe.status === 0) return null;
  const last = (probe.stderr || String(probe.error)).trim().split('\n').pop();
  return `Python cannot import what it needs (${last})`;
}

/** A zuliprc as the Python clients read it, readable by its owner only (zulip-terminal insists). */
export function writeZuliprc(file: string, email: string, key: string, site: string) {
  fs.writeFileSync(file, `[api]\nemail=${email}\nkey=${key}\nsite=${site}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}
