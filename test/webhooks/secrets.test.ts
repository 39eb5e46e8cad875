import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';
import { generateSecret, SecretBox, secretProblem } from '../../src/webhooks/secrets.ts';
import { signatureHeaders } from '../../src/webhooks/signing.ts';

describe('webhook secrets and signatures', () => {
  it('seals a secret so only its own webhook id and the same key open it', () => {
    const box = new SecretBox('k'.repeat(40));
    const sealed = box.seal('whsec_abc', 'id-1');
    expect(sealed.toString('latin1')).not.to.contain('whsec_abc');
    expect(box.open(sealed, 'id-1')).to.equal('whsec_abc');
    expect(() => box.open(sealed, 'id-2')).to.throw();
    expect(() => new SecretBox('x'.repeat(40)).open(sealed, 'id-1')).to.throw();
    expect(box.seal('whsec_abc', 'id-1').equals(sealed)).to.equal(false);
  });

  it('generates Standard Webhooks secrets and refuses weak or malformed ones', () => {
    const s = generateSecret();
    expect(s).to.match(/^whsec_/);
    expect(Buffer.from(s.slice(6), 'base64')).to.have.length(32);
    expect(secretProblem(s)).to.equal(null);
    expect(secretProblem('sixteen-chars-ok')).to.equal(null);
    expect(secretProblem('too-short')).to.match(/16 to 256/);
    expect(secretProblem('has a space in it!')).to.match(/printable/);
    expect(secretProblem('whsec_AAAA')).to.match(/24 to 64 bytes/);
  });

  it('signs the raw body: sha256=<hex HMAC> with the secret, and v1,<base64> over id.timestamp.body', () => {
    const h = signatureHeaders('sixteen-chars-ok', 'msg_1_ab', '{"x":1}', new Date(1_700_000_000_000));
    expect(h['X-Nishaan-Signature']).to.equal(`sha256=${createHmac('sha256', 'sixteen-chars-ok').update('{"x":1}').digest('hex')}`);
    expect(h['webhook-timestamp']).to.equal('1700000000');
    expect(h['webhook-signature']).to.equal(
      `v1,${createHmac('sha256', 'sixteen-chars-ok').update('msg_1_ab.1700000000.{"x":1}').digest('base64')}`,
    );
  });

  it('refuses the old public development key, and the test allow-list in production', () => {
    const prod = { NODE_ENV: 'production', URL_SIGNING_SECRET: 'u'.repeat(32), JWT_SECRET: 'j'.repeat(40) };
    expect(() => loadConfig({ ...prod, WEBHOOK_SECRET_KEY: 'dev-only-webhook-secret-key-change-me-0123456789' })).to.throw(
      /WEBHOOK_SECRET_KEY: the public development value is refused/,
    );
    expect(() => loadConfig({ ...prod, WEBHOOK_SECRET_KEY: 'w'.repeat(40), WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1' })).to.throw(
      /WEBHOOK_ALLOW_ADDRESSES/,
    );
    expect(loadConfig({ ...prod, WEBHOOK_SECRET_KEY: 'w'.repeat(40) }).WEBHOOK_RETRY_DELAY_MS).to.equal(60_000);
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: 'short' })).to.throw(/WEBHOOK_SECRET_KEY/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1,example.com' })).to.throw(
      /WEBHOOK_ALLOW_ADDRESSES: must be comma-separated/,
    );
  });
});
