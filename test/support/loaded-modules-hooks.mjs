// The module hooks of loaded-modules.mjs (they run on the loader's thread): every URL loaded is posted back.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, nextLoad) {
  port?.postMessage(url);
  return nextLoad(url, context);
}
