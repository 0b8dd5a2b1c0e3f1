// `node --import ./test/support/loaded-modules.mjs …`: on exit, writes every module file the process loaded,
// ES modules (seen by a load hook) and CommonJS ones (require's cache), one per line, to LOADED_MODULES_FILE.
// Lets a test check what a mode of the bot never loads. Each Intl date or number formatter the process builds
// is written too, as `intl:DateTimeFormat` or `intl:NumberFormat`: the first one loads ICU's formatting data
// (8 MB of resident memory), which an idle bot in UTC has no use for.
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const esm = new Set();
port1.on('message', (url) => esm.add(String(url)));
port1.unref();
register('./loaded-modules-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
const intl = new Set();
for (const name of ['DateTimeFormat', 'NumberFormat']) {
  const record = () => intl.add(`intl:${name}`);
  Intl[name] = new Proxy(Intl[name], {
    construct(target, args, newTarget) {
      record();
      return Reflect.construct(target, args, newTarget);
    },
    apply(target, self, args) {
      record();
      return Reflect.apply(target, self, args);
    },
  });
}
process.on('exit', () => {
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  writeFileSync(
    process.env.LOADED_MODULES_FILE ?? 'loaded-modules.txt',
    [...esm, ...cjs, ...intl].join('\n'),
  );
});
