/**
 * The recipient list every writer of the corpus writes: Turkish names (every letter Windows-1254, CP857 and Mac
 * Turkish must carry), a landline and a mobile number in the forms people type them, a valid identity number,
 * dates, times and amounts. `msisdn` is what the mobile cell must become, written here by hand, not computed by
 * the app's code: the corpus test compares the reader with it.
 */
export const RECIPIENTS = [
  {
    name: 'Ayşe Yılmaz',
    landline: '0212 555 12 34',
    mobile: '0532 123 45 67',
    msisdn: '905321234567',
    tcBase: '123456789',
    appointment: '2024-03-15T14:30:00',
    amount: 1087.5,
    city: 'İstanbul',
  },
  {
    name: 'Çağrı Işık',
    landline: '0312 444 23 45',
    mobile: '+90 533 234 56 78',
    msisdn: '905332345678',
    tcBase: '234567891',
    appointment: '2024-03-18T09:00:00',
    amount: 250,
    city: 'Ankara',
  },
  {
    name: 'Oğuz Şahin',
    landline: '0232 333 34 56',
    // A number cell: the leading zero is gone, as when Excel reads a typed 05442345678.
    mobile: 5442345678,
    msisdn: '905442345678',
    tcBase: '345678912',
    appointment: '2024-04-01T16:45:00',
    amount: 12345.67,
    city: 'İzmir',
  },
  {
    name: 'İpek Güneş',
    landline: '0224 222 45 67',
    mobile: '(0505) 345 67 89',
    msisdn: '905053456789',
    tcBase: '456789123',
    appointment: '2024-12-31T08:15:00',
    amount: 99.9,
    city: 'Bursa',
  },
  {
    name: 'Ümit Öztürk',
    landline: '0242 111 56 78',
    mobile: '0 555 456 78 90',
    msisdn: '905554567890',
    tcBase: '567891234',
    appointment: '2025-01-02T11:05:00',
    amount: 0.5,
    city: 'Antalya',
  },
  {
    name: 'Gülşen Doğan',
    landline: '0322 666 67 89',
    mobile: '905366789012',
    msisdn: '905366789012',
    tcBase: '678912345',
    appointment: '2024-02-29T13:00:00',
    amount: 1500,
    city: 'Adana',
  },
  {
    name: 'Şükrü Çelik',
    landline: '0262 777 78 90',
    mobile: '0532-987-65-43',
    msisdn: '905329876543',
    tcBase: '789123456',
    appointment: '2024-07-07T19:59:00',
    amount: 3200.25,
    city: 'Kocaeli',
  },
  {
    name: 'Ilgın Ağaoğlu',
    landline: '0462 888 89 01',
    mobile: 5419876543,
    msisdn: '905419876543',
    tcBase: '891234567',
    appointment: '2024-10-29T10:30:00',
    amount: 75,
    city: 'Trabzon',
  },
].map((r) => ({ ...r, tc: tcKimlikNo(r.tcBase) }));

/** A valid Turkish identity number from its first nine digits: the 10th and 11th are check digits. */
function tcKimlikNo(base) {
  const d = [...base].map(Number);
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  const eleventh = (d.reduce((a, b) => a + b, 0) + tenth) % 10;
  return `${base}${tenth}${eleventh}`;
}

/** Numbers of people who must never get the message: they are on a hidden sheet, a chart's data, notes. */
export const NOT_RECIPIENTS = [
  { name: 'Eski Kayıt', mobile: '0530 000 00 01' },
  { name: 'Silinmiş Kişi', mobile: '0530 000 00 02' },
];

/** The header every table writer uses, in column order. */
export const HEADER = [
  'Ad Soyad',
  'Telefon',
  'Cep Telefonu',
  'TC Kimlik No',
  'Randevu',
  'Saat',
  'Tutar',
  'Şehir',
];
