// Served in browser tests in place of https://apis.google.com/js/api.js, which the test
// machines cannot reach. The Firebase web SDK (popup sign-in) and the Auth emulator's helper
// frame both use Google's gapi.iframes only as a message channel between the page and the
// helper frame: register a handler by name, send a named message and get the handlers'
// answers back. This is that channel over window.postMessage, nothing more. Everything else
// in the popup flow (the SDK, the emulator's pages, its REST API and tokens) is the real one.
(() => {
  const MARK = "__cohortGapiShim";
  const FILTER = "cross-origin-iframes-filter";

  /** One end of a channel: handlers by name, answers awaited by id. */
  function channel(target, isOurs) {
    const handlers = {};
    const waiting = {};
    const queued = [];
    const readyWaiters = [];
    let ready = false;
    let nextId = 1;
    const post = (message) => target().postMessage({ [MARK]: true, ...message }, "*");
    const answer = (call) => {
      const handler = handlers[call.name];
      if (!handler) {
        queued.push(call);
        return;
      }
      post({ kind: "reply", id: call.id, data: [handler(call.data)] });
    };
    window.addEventListener("message", (event) => {
      const message = event.data;
      if (message?.[MARK] !== true || !isOurs(event.source)) return;
      if (message.kind === "ping") post({ kind: "ready" });
      else if (message.kind === "ready") {
        ready = true;
        for (const resolve of readyWaiters.splice(0)) resolve();
      } else if (message.kind === "call") answer(message);
      else if (message.kind === "reply") {
        const callback = waiting[message.id];
        delete waiting[message.id];
        // gapi swallows what a callback throws (the SDK's web-storage check always throws
        // after answering); so does this channel.
        try {
          if (callback) callback(message.data);
        } catch {}
      }
    });
    return {
      register(name, handler) {
        handlers[name] = handler;
        for (const call of queued.splice(0)) answer(call);
      },
      send(name, data, callback) {
        const id = nextId++;
        if (callback) waiting[id] = callback;
        post({ kind: "call", name, data, id });
      },
      restyle() {
        return Promise.resolve();
      },
      ping(callback) {
        const done = new Promise((resolve) => {
          if (ready) resolve();
          else readyWaiters.push(resolve);
        });
        post({ kind: "ping" });
        return done.then(() => {
          if (callback) callback();
        });
      },
    };
  }

  let parentChannel = null;
  const context = {
    open(options, onOpened) {
      const frame = document.createElement("iframe");
      const attributes = options.attributes || {};
      for (const [name, value] of Object.entries(attributes)) {
        if (name === "style") Object.assign(frame.style, value);
        else frame.setAttribute(name, String(value));
      }
      frame.src = options.url;
      const iframe = channel(
        () => frame.contentWindow,
        (source) => source === frame.contentWindow,
      );
      const loaded = new Promise((resolve) => frame.addEventListener("load", resolve));
      (options.where || document.body).appendChild(frame);
      return loaded.then(() => onOpened(iframe));
    },
    getParentIframe() {
      if (!parentChannel) {
        parentChannel = channel(
          () => window.parent,
          (source) => source === window.parent,
        );
      }
      return parentChannel;
    },
  };
  // The helper frame answers pings as soon as it is loaded, before any handler is registered.
  if (window.parent !== window) context.getParentIframe();

  window.gapi = {
    load(_name, options) {
      setTimeout(() => options.callback(), 0);
    },
    iframes: {
      getContext: () => context,
      Iframe: function Iframe() {},
      CROSS_ORIGIN_IFRAMES_FILTER: FILTER,
    },
  };
  const onload = new URL(document.currentScript.src).searchParams.get("onload");
  setTimeout(() => {
    if (onload && typeof window[onload] === "function") window[onload]();
    if (typeof window.gapi_onload === "function") window.gapi_onload();
  }, 0);
})();
