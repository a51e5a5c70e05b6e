/* "Copy as text" for the standings and the pairings (issue 17): the page carries the text (a hidden <pre>,
 * rendered with the page); the phone's share sheet when it has one, else the clipboard. The address of the
 * page is added so a message leads back to it. */
(function () {
  "use strict";
  document.querySelectorAll("button[data-share]").forEach(function (button) {
    var source = document.getElementById(button.getAttribute("data-share"));
    var status = button.parentNode.querySelector(".share-status");
    if (!source) return;
    var canShare = typeof navigator.share === "function";
    button.textContent = canShare ? "Share as text" : "Copy as text";
    button.hidden = false;
    function say(text) { if (status) status.textContent = text; }
    button.addEventListener("click", function () {
      var text = source.textContent.trim() + "\n" + location.href.split("#")[0];
      if (canShare) {
        navigator.share({ title: document.title, text: text }).catch(function () { /* dismissed */ });
        return;
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { say("Copied: paste it into a message."); },
          function () { fallback(text); });
      } else {
        fallback(text);
      }
    });
    function fallback(text) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.setAttribute("aria-label", "The text to copy");
      area.className = "share-fallback";
      button.parentNode.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      say(ok ? "Copied: paste it into a message." : "Select the text below and copy it.");
      if (ok) area.remove();
    }
  });
})();
