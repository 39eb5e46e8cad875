import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * A fresh self-signed EC key and certificate for 127.0.0.1 and localhost, written by the openssl CLI
 * into `dir` as key.pem and cert.pem: the certificate doubles as the CA file a client is told to trust.
 */
export function writeLoopbackCertificate(dir: string): { key: string; cert: string } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}
