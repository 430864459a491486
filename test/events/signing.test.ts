import { Webhook } from 'standardwebhooks';
import { newSecret, signedHeaders } from '../../src/events/signing';

// The worker signs with node:crypto; the standardwebhooks package is the independent judge of
// the format (the one docs/events.md tells receivers to verify with).
describe('webhook signatures', () => {
  const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
  const at = new Date('2026-11-27T12:00:00.750Z');
  // Multi-byte characters: the signed text is UTF-8, not one byte per character.
  const body = JSON.stringify({ id, type: 'feature.created', data: { name: 'Äänekoski ✓ 東京 🚀' } });

  it('signs exactly as standardwebhooks does, and it verifies', () => {
    const secret = newSecret();
    const headers = signedHeaders([secret], id, at, body);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, at, body));
    const now = jest.spyOn(Date, 'now').mockReturnValue(at.getTime() + 1000);
    try {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
      expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    } finally {
      now.mockRestore();
    }
  });

  it('carries one signature per secret during a rotation, each verifying alone', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const headers = signedHeaders([current, previous], id, at, body);
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toEqual([
      new Webhook(current).sign(id, at, body),
      new Webhook(previous).sign(id, at, body),
    ]);
    const now = jest.spyOn(Date, 'now').mockReturnValue(at.getTime());
    try {
      for (const secret of [current, previous])
        expect(new Webhook(secret).verify(body, headers)).toBeTruthy();
    } finally {
      now.mockRestore();
    }
  });

  it('signs with a fixed secret as the specification example gives', () => {
    // The Standard Webhooks reference test vector (its libraries' own tests).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const headers = signedHeaders(
      [secret],
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330 * 1000),
      '{"test": 2432232314}',
    );
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
