import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing/fixtures';
import { BRIDGE_PORT, bwrapOptions, bwrapSetupError, encodeArgs, PROXY_DIR, sandboxEnv } from './bwrapArgs';
import type { SandboxLayout } from './layout';
import type { SandboxGrants } from './types';

// What bwrap is told, option by option (bwrap.hardening.test.ts shows what the options stop
// in a real sandbox). The order matters to bwrap: binds after the masks they punch through,
// the remounts after the binds, --chdir last.
const layout: SandboxLayout = {
  masks: ['/home/ana', '/tmp'],
  binds: [
    { path: '/home/ana/skills/pdf', writable: false },
    { path: '/tmp/run-1', writable: true },
  ],
  remasks: [],
  deniedFiles: ['/etc/shadow'],
};
const spec = (network: SandboxGrants['network'] = false) => ({
  cwd: '/tmp/run-1/./',
  grants: {
    read: [],
    write: [],
    network,
    env: {},
    declared: { read: [], write: [] },
  },
});

describe('bwrapOptions', () => {
  it('builds the full option list, in the order bwrap applies it', () => {
    const options = bwrapOptions(spec(), layout, {
      disableUserns: true,
      proxyDir: null,
      env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
      deniedSource: '/var/skilldeck/denied',
    });
    expect(options).toEqual([
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--size',
      String(64 * 1024 * 1024),
      '--tmpfs',
      '/dev/shm',
      '--proc',
      '/proc',
      '--ro-bind',
      '/proc/sys',
      '/proc/sys',
      '--ro-bind-try',
      '/proc/sysrq-trigger',
      '/proc/sysrq-trigger',
      '--tmpfs',
      '/home/ana',
      '--tmpfs',
      '/tmp',
      '--ro-bind',
      '/home/ana/skills/pdf',
      '/home/ana/skills/pdf',
      '--bind',
      '/tmp/run-1',
      '/tmp/run-1',
      '--ro-bind',
      '/var/skilldeck/denied',
      '/etc/shadow',
      '--remount-ro',
      '/home/ana',
      '--remount-ro',
      '/tmp',
      '--remount-ro',
      '/dev',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-net',
      '--new-session',
      '--die-with-parent',
      '--clearenv',
      '--setenv',
      'PATH',
      '/usr/bin:/bin',
      '--setenv',
      'LANG',
      'C.UTF-8',
      '--chdir',
      '/tmp/run-1',
    ]);
  });

  it('leaves out --disable-userns where bwrap lacks it, and binds the proxy folder read-only', () => {
    const options = bwrapOptions(spec(['api.example.com']), layout, {
      disableUserns: false,
      proxyDir: '/tmp/skilldeck-proxy-x',
      env: {},
    });
    expect(options).not.toContain('--disable-userns');
    const at = options.indexOf('/tmp/skilldeck-proxy-x');
    expect(options.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/tmp/skilldeck-proxy-x', PROXY_DIR]);
    expect(PROXY_DIR).toBe('/run/skilldeck-proxy');
    // The proxy is bound before /tmp turns read-only, and an allow-list still has no network.
    expect(at).toBeLessThan(options.indexOf('--remount-ro'));
    expect(options).toContain('--unshare-net');
  });

  describe('with the network on', () => {
    const dir = tempDir('skilldeck-resolv-');
    // systemd-resolved's layout: /etc/resolv.conf → /run/…/stub-resolv.conf. /run/lock is
    // world-writable on Linux, so this runs as any user.
    const runDir = fs.mkdtempSync('/run/lock/skilldeck-resolv-');
    afterAll(() => {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(runDir, { recursive: true, force: true });
    });
    const link = (name: string, target: string) => {
      const file = path.join(dir, name);
      fs.symlinkSync(target, file);
      return file;
    };
    const networked = (resolvConf: string) =>
      bwrapOptions(spec(true), layout, { disableUserns: true, proxyDir: null, env: {}, resolvConf });

    it('shares the host network and brings back the resolver folder a /run mask would hide', () => {
      fs.writeFileSync(path.join(runDir, 'stub-resolv.conf'), 'nameserver 127.0.0.53\n');
      const options = networked(link('to-run', path.join(runDir, 'stub-resolv.conf')));
      expect(options).not.toContain('--unshare-net');
      const at = options.indexOf(runDir);
      expect(options.slice(at - 1, at + 2)).toEqual(['--ro-bind', runDir, runDir]);
      expect(at).toBeGreaterThan(options.lastIndexOf('--remount-ro'));
    });

    it('binds nothing more for a resolv.conf outside /run, or none at all', () => {
      const plain = path.join(dir, 'resolv.conf');
      fs.writeFileSync(plain, 'nameserver 192.0.2.1\n');
      const base = networked(path.join(dir, 'missing.conf'));
      expect(networked(plain)).toEqual(base);
      expect(base.filter((o) => o === '--ro-bind')).toHaveLength(3);
    });
  });
});

describe('sandboxEnv', () => {
  it('passes the granted variables but never a loader hook', () => {
    expect(
      sandboxEnv(
        {
          PATH: '/bin',
          LD_PRELOAD: 'x.so',
          LD_LIBRARY_PATH: '/x',
          DYLD_INSERT_LIBRARIES: 'x.dylib',
          NODE_OPTIONS: '-r x',
          MY_LD_PATH: 'kept',
          NODE_OPTIONS_FILE: 'kept',
        },
        null,
      ),
    ).toEqual({ PATH: '/bin', MY_LD_PATH: 'kept', NODE_OPTIONS_FILE: 'kept' });
  });

  it('points every proxy variable at the bridge for an allow-list, loopback included', () => {
    const url = `http://127.0.0.1:${BRIDGE_PORT}`;
    expect(BRIDGE_PORT).toBe(3128);
    expect(sandboxEnv({ PATH: '/bin', NO_PROXY: 'internal.test' }, url)).toEqual({
      PATH: '/bin',
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url,
      ALL_PROXY: url,
      all_proxy: url,
      NO_PROXY: '',
      no_proxy: '',
      NODE_USE_ENV_PROXY: '1',
    });
  });
});

describe('encodeArgs', () => {
  it('ends every option with a NUL, as bwrap --args reads them', () => {
    expect(Buffer.from(encodeArgs(['--setenv', 'A', 'x y', ''])).toString()).toBe('--setenv\0A\0x y\0\0');
    expect(encodeArgs([])).toHaveLength(0);
  });
});

describe('bwrapSetupError', () => {
  it("reads bwrap's own failure, not the skill's", () => {
    const stderr = "something first\nbwrap: Can't mount proc on /newroot/proc: Operation not permitted\n";
    expect(bwrapSetupError(stderr, 1)).toBe(
      "bubblewrap could not start the sandbox: Can't mount proc on /newroot/proc: Operation not permitted",
    );
    expect(bwrapSetupError(stderr, 2)).toBeUndefined();
    expect(bwrapSetupError(stderr, null)).toBeUndefined();
    expect(bwrapSetupError('Traceback: bwrap: not at the start\n', 1)).toBeUndefined();
    expect(bwrapSetupError('', 1)).toBeUndefined();
  });
});
