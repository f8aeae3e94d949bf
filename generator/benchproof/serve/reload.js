// Added by `benchproof serve` to the pages it serves, never to the site on disk: reload the
// page when a rebuild has finished (the server's version differs from the page's).
(function () {
  "use strict";
  var version = document.currentScript.getAttribute("data-version");
  function poll() {
    fetch("/__benchproof__/status", { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (status) {
        if (String(status.version) !== version) { location.reload(); } else { setTimeout(poll, 250); }
      }, function () { setTimeout(poll, 1000); });  // the server is gone or restarting
  }
  setTimeout(poll, 250);
})();
