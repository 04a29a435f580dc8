// The certificate and private key `mori ui --tls-cert FILE --tls-key FILE` serves HTTPS with
// (DESIGN.md §11): both read and parsed before anything listens, so a file that cannot be read, is
// not PEM, or a key that is not the certificate's is said naming the file, and nothing starts. The
// files are the person's own (given on the command line), never a project's. Runs in `mori ui`.
import { readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { fail, ok, type Result } from '../../common/result.js';

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** A certificate or key file is a few kilobytes; a chain a few more. More is not a PEM file someone meant. */
const MAX_TLS_FILE_BYTES = 1024 * 1024;

function readPem(flag: string, file: string): Result<Buffer> {
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? 'not-found' : 'unreadable', `${flag} ${file}: cannot read it (${code ?? (err as Error).message})`);
  }
  if (body.length > MAX_TLS_FILE_BYTES) return fail('unreadable', `${flag} ${file}: ${body.length} bytes is too large for a PEM file`);
  return ok(body);
}

/** The certificate and key, checked: each parses, and the key is the certificate's. */
export function readTlsFiles(certFile: string, keyFile: string): Result<TlsFiles> {
  const cert = readPem('--tls-cert', certFile);
  if (!cert.ok) return cert;
  const key = readPem('--tls-key', keyFile);
  if (!key.ok) return key;
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert.value);
  } catch (err) {
    return fail('unreadable', `--tls-cert ${certFile}: not a PEM certificate (${(err as Error).message})`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key.value);
  } catch (err) {
    return fail('unreadable', `--tls-key ${keyFile}: not an unencrypted PEM private key (${(err as Error).message})`);
  }
  if (!x509.checkPrivateKey(privateKey)) return fail('usage', `--tls-key ${keyFile} is not the private key of the certificate in --tls-cert ${certFile}`);
  return ok({ cert: cert.value, key: key.value });
}
