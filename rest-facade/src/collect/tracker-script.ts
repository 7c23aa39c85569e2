/**
 * The tracking script websites embed:
 *   <script defer src="{base_url}/tracker.js" data-tracking-code="wa-…"></script>
 * It sends page views (including client-side navigation), clicks for heatmaps and uncaught errors
 * to POST /api/collect, and exposes `wa.track(name, props, { revenue: { amount, currency } })`
 * for custom events (props and the revenue optional) and `wa.replay(sessionId, sequence, events)`
 * for a session recorder (such as rrweb) to upload chunks.
 * Requests are text/plain beacons, so browsers send them without a CORS preflight.
 */
export const TRACKER_SCRIPT = `(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var code = script.getAttribute('data-tracking-code');
  if (!code) return;
  var endpoint = new URL('/api/collect', script.src).href;
  function send(payload) {
    payload.trackingCode = code;
    payload.url = location.href;
    payload.screen = { width: screen.width, height: screen.height };
    var body = JSON.stringify(payload);
    if (navigator.sendBeacon && navigator.sendBeacon(endpoint, body)) return;
    fetch(endpoint, { method: 'POST', body: body, keepalive: true, headers: { 'Content-Type': 'text/plain' } }).catch(function () {});
  }
  var lastPath = null;
  function pageview() {
    if (location.pathname === lastPath) return;
    lastPath = location.pathname;
    send({ type: 'pageview', referrer: document.referrer || null });
  }
  var push = history.pushState;
  history.pushState = function () { push.apply(this, arguments); pageview(); };
  addEventListener('popstate', pageview);
  document.addEventListener('click', function (e) {
    send({ type: 'click', x: Math.max(0, Math.round(e.pageX)), y: Math.max(0, Math.round(e.pageY)),
      viewport: { width: innerWidth, height: innerHeight } });
  }, true);
  addEventListener('error', function (e) {
    if (!e.message) return;
    send({ type: 'error', message: String(e.message).slice(0, 1000), stack: e.error && e.error.stack ? String(e.error.stack).slice(0, 10000) : undefined });
  });
  window.wa = {
    track: function (name, props, options) {
      var revenue = options && options.revenue;
      send({ type: 'event', name: String(name), props: props || undefined,
        revenue: revenue ? { amount: revenue.amount, currency: revenue.currency } : undefined });
    },
    replay: function (sessionId, sequence, events) { send({ type: 'replay', sessionId: sessionId, sequence: sequence, events: events }); }
  };
  pageview();
})();
`;
