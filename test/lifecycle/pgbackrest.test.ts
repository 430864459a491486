import { spawn } from 'node:child_process';
import path from 'node:path';
import { describeWithTool } from '../support/debian-tools';

/**
 * Point-in-time recovery with pgBackRest as docs/operations.md ("Backups") describes it, proved by
 * scripts/backup/pgbackrest-drill.sh on a throw-away cluster of its own: a full backup, writes
 * before and after a noted moment, a restore to that moment holding exactly the writes before it.
 */
jest.setTimeout(300_000);

describeWithTool(
  '/usr/bin/pgbackrest',
  'pgbackrest',
  'pgBackRest point-in-time recovery',
)('pgBackRest point-in-time recovery', () => {
  it('restores a cluster to a moment between two sets of writes', async () => {
    const script = path.resolve(__dirname, '../../scripts/backup/pgbackrest-drill.sh');
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ proved: true, target: expect.any(String), rows: 200 });
  });
});
