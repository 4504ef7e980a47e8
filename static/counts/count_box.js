// Running total of a counter's blind count (display only: the server recounts every figure).
// Loaded in the page's head, before the grid exists, and listening on the document: a figure
// typed, a field focused or an Enter pressed while the rest of the page still loads is handled
// like any other (an Enter in the grid never submits a half-typed count; a pre-filled recount's
// field is selected so only what differs is retyped), and the total follows.
(function () {
  const money = (cents) => "$" + (cents / 100).toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2});
  const inputs = () => Array.from(document.querySelectorAll("#count-grid .qty"));
  const isQuantity = (el) => el instanceof HTMLInputElement && el.matches("#count-grid .qty");
  function update() {
    let total = 0;
    for (const input of inputs()) {
      const q = /^\d+$/.test(input.value.trim()) ? parseInt(input.value.trim(), 10) : 0;
      const amount = q * parseInt(input.dataset.cents, 10);
      total += amount;
      const cell = document.querySelector('[data-amount-for="' + input.id + '"]');
      if (cell) cell.textContent = money(amount);
    }
    for (const id of ["running-total", "grid-total"]) {
      const el = document.getElementById(id);
      if (el) el.textContent = money(total);
    }
  }
  document.addEventListener("input", (e) => { if (isQuantity(e.target)) update(); });
  document.addEventListener("focusin", (e) => { if (isQuantity(e.target)) e.target.select(); });
  document.addEventListener("keydown", (e) => {  // Enter moves down the grid, like a tally sheet, then on to the forms found
    if (e.key !== "Enter" || !isQuantity(e.target)) return;
    e.preventDefault();
    const all = inputs();
    const next = all[all.indexOf(e.target) + 1] || document.getElementById("fill_numbers");
    if (!next) return;  // the next row is not on the page yet
    next.focus();
    next.select();
  });
  document.addEventListener("DOMContentLoaded", update);  // a pre-filled recount's figures
})();
