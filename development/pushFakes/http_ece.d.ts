// http_ece (the RFC 8188 / RFC 8291 content coding used by web-push) ships no types; the fake uses decrypt only.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export function decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string | Buffer }): Buffer;
}
