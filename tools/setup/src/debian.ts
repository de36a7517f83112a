import { accessSync, constants, existsSync } from 'node:fs';
import { runCommand } from './command';

/** A Debian package a suite needs, known to be installed by one file it provides. */
export interface DebianPackage {
  name: string;
  /** An executable the package installs, e.g. /usr/bin/promtool. */
  provides: string;
  /** Which tests need it, for the message when it is missing. */
  neededBy: string;
}

const APT_GET = '/usr/bin/apt-get';

/** Whether `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The packages whose executable is not there. */
export function missingPackages(packages: readonly DebianPackage[]): DebianPackage[] {
  return packages.filter((pkg) => !isExecutable(pkg.provides));
}

/** Why this process cannot install packages itself, or null when it can (root, with apt-get). */
export function cannotInstallPackages(asRoot: boolean): string | null {
  if (!existsSync(APT_GET)) return 'this machine has no apt-get';
  if (!asRoot) return 'installing needs root';
  return null;
}

/** The one command that installs `names`, for a person to run (with sudo when not root). */
export function installCommand(names: readonly string[], asRoot: boolean): string {
  const sudo = asRoot ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${names.join(' ')}`;
}

/** Those of `names` that no configured package source offers (apt-cache policy shows no candidate). */
export async function packagesWithoutCandidate(names: readonly string[]): Promise<string[]> {
  const policy = await runCommand('apt-cache', ['policy', ...names]);
  const candidates = new Map<string, string>();
  let current: string | null = null;
  for (const line of policy.output.split('\n')) {
    const heading = /^(\S+):$/.exec(line);
    if (heading) current = heading[1]!;
    const candidate = /^\s+Candidate:\s*(\S+)/.exec(line);
    if (current && candidate) candidates.set(current, candidate[1]!);
  }
  return names.filter((name) => (candidates.get(name) ?? '(none)') === '(none)');
}

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
// Another apt-get (another engineer's set-up) may hold dpkg's lock: wait for it instead of failing.
const APT_OPTIONS = ['-q', '-o', 'DPkg::Lock::Timeout=600'];

/**
 * Installs `names` as root: `apt-get update` once, then `apt-get install -y
 * --no-install-recommends`, its output shown as it comes. Throws saying which package no
 * source offers, or that apt-get failed.
 */
export async function installPackages(names: readonly string[]): Promise<void> {
  const update = await runCommand(APT_GET, ['update', ...APT_OPTIONS], { inherit: true, env: APT_ENV });
  const unknown = await packagesWithoutCandidate(names);
  if (unknown.length > 0) {
    throw new Error(
      `no package source offers ${unknown.join(', ')}` +
        (update.code === 0 ? '' : ` (apt-get update failed, exit ${update.code})`) +
        ": add Debian's main archive to /etc/apt/sources.list",
    );
  }
  const install = await runCommand(
    APT_GET,
    ['install', '-y', '--no-install-recommends', ...APT_OPTIONS, ...names],
    { inherit: true, env: APT_ENV },
  );
  if (install.code !== 0) throw new Error(`apt-get install ${names.join(' ')} failed (exit ${install.code})`);
}
