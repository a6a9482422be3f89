/* trigsight's only script on every page. Pages work fully without it; it only adds:
   - the text-fragment fallback, downloaded only by browsers that cannot highlight
     #:~:text= links themselves and only when the URL carries one;
   - the home page's 3D scene, downloaded after the page has loaded, and only when the
     device can afford it. */
(function () {
  var me = document.currentScript;

  function load(src, url) {
    var script = document.createElement("script");
    script.src = src;
    if (url) script.setAttribute("data-url", url);
    script.async = true;
    document.head.appendChild(script);
  }

  function directiveIn(url) {
    return !!url && url.indexOf(":~:") >= 0;
  }

  if (me && !("fragmentDirective" in document)) {
    var fallback = me.getAttribute("data-fallback"), loaded = false;
    // Chromium strips the directive from location.hash even when the feature is off; the
    // navigation entry and hashchange's newURL keep the URL as it was requested.
    var entry = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    var check = function (url) {
      if (!loaded && directiveIn(url)) { loaded = true; load(fallback, url); }
    };
    check(location.hash);
    check(entry && entry.name);
    addEventListener("hashchange", function (event) { check(event.newURL || location.hash); });
  }

  var host = document.querySelector("[data-scene]");

  function affordable() {
    var connection = navigator.connection;
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
    if (connection && (connection.saveData || /(^|-)2g$/.test(connection.effectiveType || ""))) return false;
    // Weak devices: at most 1 GB of memory or a single core. Slow GPUs are caught by the
    // scene itself, which stops animating when frames take too long.
    if ((navigator.deviceMemory || 8) < 2 || (navigator.hardwareConcurrency || 8) < 2) return false;
    if (!host.offsetWidth || !host.offsetHeight) return false;
    var probe = document.createElement("canvas"), gl;
    try { gl = probe.getContext("webgl"); } catch (error) { gl = null; }
    if (!gl) return false;
    var lose = gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();   // free the probe's context now, not at garbage collection
    return true;
  }

  function start() {
    if (affordable()) load(host.getAttribute("data-scene"));
  }

  function later() {
    // After the load event and when the main thread is idle: never before the first render.
    if (window.requestIdleCallback) requestIdleCallback(start, { timeout: 2000 });
    else setTimeout(start, 200);
  }

  if (host) {
    if (document.readyState === "complete") later();
    else addEventListener("load", later);
  }
})();
