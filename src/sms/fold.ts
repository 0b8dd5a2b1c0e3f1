// Case-insensitive comparison that survives Turkish: 'IPTAL' lower-cased in Turkish is 'ıptal',
// 'İptal' lower-cased anywhere else is 'i̇ptal' (with a combining dot), and phones without a
// Turkish keyboard send plain 'iptal'. All four dotted/dotless I forms fold to 'i'.
export function foldCase(text: string): string {
  return text.normalize('NFKC').replace(/[Iıİ]/g, 'i').toLowerCase();
}
