import { describe, expect, it } from 'vitest';
import { pgSkipNote, postgresBackend, sqliteBackend } from './helpers.js';

for (const backend of [sqliteBackend, postgresBackend]) {
  describe.skipIf(!backend.available)(
    `forgotten numbers: ${backend.name}${backend.name === 'postgres' ? pgSkipNote : ''}`,
    () => {
      it('answers which numbers were forgotten, under a key of the install, without keeping the number', async () => {
        const first = await backend.open();
        try {
          await first.store.forgottenNumbers.add('905321240001');
          await first.store.forgottenNumbers.add('905321240001');
          expect(await first.store.forgottenNumbers.forgottenAmong([])).toEqual(new Set());
          expect(
            await first.store.forgottenNumbers.forgottenAmong([
              '905321240001',
              '905321240002',
              '905321240001',
            ]),
          ).toEqual(new Set(['905321240001']));
          // The key is the install's, made once and kept in app_settings.
          const key = await first.store.appSettings.get('forgotten_numbers.key');
          expect(key?.value).toMatch(/^[A-Za-z0-9+/]{43}=$/);
          expect(key?.value).not.toContain('5321240001');
        } finally {
          await first.cleanup();
        }
      });
    },
  );
}
