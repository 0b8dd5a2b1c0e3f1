/** iconv-lite (its code-page tables are half a megabyte) is loaded when the first file needs it, not at start. */
const loadIconv = async () => (await import('iconv-lite')).default;

/** Text of a file: a BOM says the encoding; else UTF-8 when the bytes are valid UTF-8, else Windows-1254. */
export async function decodeText(bytes: Uint8Array): Promise<{ text: string; encoding: string }> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: buffer.toString('utf8', 3), encoding: 'UTF-8 with BOM' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: (await loadIconv()).decode(buffer.subarray(2), 'utf16le'), encoding: 'UTF-16' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: (await loadIconv()).decode(buffer.subarray(2), 'utf16be'), encoding: 'UTF-16' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buffer), encoding: 'UTF-8' };
  } catch {
    // Not UTF-8: what Excel and Notepad write on a Turkish Windows ("ANSI"), a superset of Latin-5.
    return { text: (await loadIconv()).decode(buffer, 'win1254'), encoding: 'Windows-1254' };
  }
}
