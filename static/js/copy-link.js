// "Copy the link" buttons next to a one-time link (data-copy="<input id>"); no inline script (CSP).
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = document.getElementById(button.dataset.copy);
  if (!input) return;
  input.focus();
  input.select();
  const done = () => { button.textContent = "Copied"; };
  const fallback = () => { try { document.execCommand("copy"); done(); } catch (e) { /* selected: copy by hand */ } };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, fallback);
  } else {
    fallback();
  }
});
