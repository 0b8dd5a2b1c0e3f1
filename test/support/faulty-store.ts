import type { Store } from '../../src/store/index.js';

/**
 * The store, with each repository method call first asking `faultOf('<repository>.<method>')`: an error it returns
 * is what the call rejects with (a database outage, a process stopping at that point), undefined lets it through.
 * `before`, if given, is awaited before each call that goes through: what another instance or a person does at
 * that moment.
 */
export function withStoreFaults(
  store: Store,
  faultOf: (method: string) => Error | undefined,
  before?: (method: string) => Promise<void> | void,
): Store {
  return new Proxy(store, {
    get(target, key, receiver) {
      const repo = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || typeof repo !== 'object' || repo === null) return repo;
      return new Proxy(repo, {
        get(r, method) {
          const fn = Reflect.get(r, method);
          if (typeof fn !== 'function') return fn;
          return async (...args: unknown[]) => {
            const name = `${key}.${String(method)}`;
            const fault = faultOf(name);
            if (fault) throw fault;
            await before?.(name);
            return fn.apply(r, args);
          };
        },
      });
    },
  });
}
