/**
 * A workbook with a password to open, as Excel 2010 and later save it: ECMA-376 agile encryption (MS-OFFCRYPTO
 * 2.3.4.10-2.3.4.15: AES-256-CBC, SHA-512, 100,000 spins) in an OLE compound file with the EncryptionInfo and
 * EncryptedPackage streams. Debian's msoffcrypto-tool 5.0 only decrypts, and LibreOffice 7.4 would not save a
 * password from a script here; build.mjs checks the result by decrypting it with msoffcrypto-tool.
 */
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import CFB from 'cfb';

const SPINS = 100_000;
const SEGMENT = 4096;
const BLOCK = {
  verifierInput: Buffer.from('fea7d2763b4b9e79', 'hex'),
  verifierValue: Buffer.from('d7aa0f6d3061344e', 'hex'),
  keyValue: Buffer.from('146e0be7abacd0d6', 'hex'),
  hmacKey: Buffer.from('5fb2ad010cb9e1f6', 'hex'),
  hmacValue: Buffer.from('a0677f02b22c8433', 'hex'),
};

const sha512 = (...parts) => createHash('sha512').update(Buffer.concat(parts)).digest();
const uint32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
function aes(key, iv, data) {
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}
const padded = (data) => Buffer.concat([data, Buffer.alloc((16 - (data.length % 16)) % 16)]);

function passwordKey(password, salt, block) {
  let hash = sha512(salt, Buffer.from(password, 'utf16le'));
  for (let i = 0; i < SPINS; i++) hash = sha512(uint32(i), hash);
  return sha512(hash, block).subarray(0, 32);
}

export function encryptWorkbook(plain, password) {
  const keySalt = randomBytes(16);
  const passwordSalt = randomBytes(16);
  const secret = randomBytes(32);
  const ivOf = (block) => sha512(keySalt, block).subarray(0, 16);

  const segments = [];
  for (let i = 0, n = 0; i < plain.length; i += SEGMENT, n++) {
    segments.push(
      aes(secret, sha512(keySalt, uint32(n)).subarray(0, 16), padded(plain.subarray(i, i + SEGMENT))),
    );
  }
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(plain.length));
  const pkg = Buffer.concat([size, ...segments]);

  const hmacKey = randomBytes(64);
  const hmacValue = createHmac('sha512', hmacKey).update(pkg).digest();
  const verifier = randomBytes(16);
  const b64 = (b) => b.toString('base64');
  const keyAttrs =
    'blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512"';
  const xml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
    '<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" ' +
    'xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<keyData saltSize="16" ${keyAttrs} saltValue="${b64(keySalt)}"/>` +
    `<dataIntegrity encryptedHmacKey="${b64(aes(secret, ivOf(BLOCK.hmacKey), hmacKey))}" ` +
    `encryptedHmacValue="${b64(aes(secret, ivOf(BLOCK.hmacValue), hmacValue))}"/>` +
    '<keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<p:encryptedKey spinCount="${SPINS}" saltSize="16" ${keyAttrs} saltValue="${b64(passwordSalt)}" ` +
    `encryptedVerifierHashInput="${b64(aes(passwordKey(password, passwordSalt, BLOCK.verifierInput), passwordSalt, verifier))}" ` +
    `encryptedVerifierHashValue="${b64(aes(passwordKey(password, passwordSalt, BLOCK.verifierValue), passwordSalt, sha512(verifier)))}" ` +
    `encryptedKeyValue="${b64(aes(passwordKey(password, passwordSalt, BLOCK.keyValue), passwordSalt, secret))}"/>` +
    '</keyEncryptor></keyEncryptors></encryption>';
  // Version 4.4 and the agile flag 0x40, then the XML.
  const info = Buffer.concat([Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]), Buffer.from(xml, 'utf8')]);

  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'EncryptionInfo', info);
  CFB.utils.cfb_add(cfb, 'EncryptedPackage', pkg);
  return Buffer.from(CFB.write(cfb, { type: 'buffer', fileType: 'cfb' }));
}
