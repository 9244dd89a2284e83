/* global document, window, setTimeout */
// The status page when JavaScript is on (docs/status-pages.md): times in the visitor's own zone,
// and the page read afresh every 60 s. Without it the page says the same in UTC and stays as loaded.
(function () {
  'use strict';
  var REFRESH_MS = 60000;
  var format = new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  document.querySelectorAll('time[datetime]').forEach(function (t) {
    var d = new Date(t.getAttribute('datetime'));
    if (!isNaN(d.getTime())) t.textContent = format.format(d);
  });
  // Never under a visitor typing an address into the subscribe form: then try again a period later.
  function refresh() {
    var field = document.getElementById('subscribe-email');
    if (field && (field.value !== '' || document.activeElement === field)) return setTimeout(refresh, REFRESH_MS);
    window.location.reload();
  }
  setTimeout(refresh, REFRESH_MS);
})();
