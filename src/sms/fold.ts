// Case-insensitive comparison that survives Turkish: 'IPTAL' lower-cased in Turkish is 'ıptal',
// 'İptal' lower-cased anywhere else is 'i̇ptal' (with a combining dot), and phones without a
// Turkish keyboard send plain 'iptal'. All four dotted/dotless I forms fold to 'i'.
// (ı and İ written as escapes: the compiled bundle stays ASCII, see scripts/build.mjs.)
export function foldCase(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[I\u0131\u0130]/g, 'i')
    .toLowerCase();
}
