import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './process';

/** Where Debian's dovecot-imapd puts the server (.ci/run installs it). */
export const DOVECOT = '/usr/sbin/dovecot';

export interface ImapServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Delivers a raw message into a folder of the test user (IMAP APPEND). */
  append(raw: string | Buffer, folder?: string): Promise<void>;
  close(): Promise<void>;
}

async function listening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`dovecot did not listen on ${port}: ${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A real IMAP server for one test file: Debian's dovecot, in the foreground, as the current user,
 * on 127.0.0.1 and a free port, with a throw-away configuration and Maildir under a temporary
 * folder, one user with a plain password, plain-text sign-in over an unencrypted connection.
 */
export async function startImap(): Promise<ImapServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bms-imap-'));
  const port = await freePort();
  const me = userInfo();
  // Dovecot runs neither its sign-in nor its mail processes as root: as root (CI), they run as the
  // users Debian's package made (dovenull, and nobody for the mail); otherwise as the current user.
  const root = me.uid === 0;
  const idOf = (flag: string, name: string) => Number(execFileSync('id', [flag, name]).toString().trim());
  const mailUid = root ? idOf('-u', 'nobody') : me.uid;
  const mailGid = root ? idOf('-g', 'nobody') : me.gid;
  const loginUser = root ? 'dovenull' : me.username;
  const internalUser = root ? 'dovecot' : me.username;
  await chmod(dir, 0o755);
  for (const sub of ['mail', 'home']) {
    await mkdir(path.join(dir, sub));
    await chown(path.join(dir, sub), mailUid, mailGid);
  }
  const user = 'inbox';
  const password = 'imap-test-password';
  await writeFile(
    path.join(dir, 'passwd'),
    `${user}:{PLAIN}${password}:${mailUid}:${mailGid}::${dir}/home\n`,
  );
  const config = `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = bms-imap-${port}
default_login_user = ${loginUser}
default_internal_user = ${internalUser}
first_valid_uid = ${Math.min(mailUid, 1)}
last_valid_uid = 0
first_valid_gid = ${Math.min(mailGid, 1)}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = ${dir}/dovecot.log
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  chroot =
}
service anvil {
  chroot =
}
`;
  const conf = path.join(dir, 'dovecot.conf');
  await writeFile(conf, config);
  let out = '';
  const child = spawn(DOVECOT, ['-F', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await listening(port, child, () => out);

  const server: ImapServer = {
    host: '127.0.0.1',
    port,
    user,
    password,
    async append(raw, folder = 'INBOX') {
      const client = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        auth: { user, pass: password },
        logger: false,
      });
      await client.connect();
      try {
        if (folder !== 'INBOX') await client.mailboxCreate(folder).catch(() => undefined);
        await client.append(folder, raw);
      } finally {
        await client.logout();
      }
    },
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}
