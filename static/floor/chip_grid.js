// The chip grid: running totals (display only: the server recounts every figure) and the
// toggle between chip counts and dollar amounts per denomination. Dollars are read as whole
// cents from the text, never through a binary fraction; the server converts them again.
// Loaded in the page's head, before the grid exists, and listening on the document (as the
// count page's script): a figure typed or a mode chosen while the rest of the page still loads
// is handled like any other, and the total follows.
(function () {
  const dollars = new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"});
  const DOLLARS = /^\$?(\d{1,3}(?:,\d{3})+|\d{1,12})(?:\.(\d{1,2}))?$/;
  function money(cents) { return (cents < 0 ? "-" : "") + dollars.format(Math.abs(cents) / 100); }
  function show(id, text) { const el = document.getElementById(id); if (el) el.textContent = text; }
  function mode() {
    const checked = document.querySelector("input.entry-mode:checked");
    return checked ? checked.value : "chips";
  }
  function cents(text) {  // "1,250.5" -> 125050; blank -> 0; not dollars -> null
    text = text.trim();
    if (text === "") return 0;
    const match = DOLLARS.exec(text);
    if (!match) return null;
    return parseInt(match[1].replace(/,/g, ""), 10) * 100 + parseInt(((match[2] || "") + "00").slice(0, 2), 10);
  }
  function quantity(input) {
    return /^\d+$/.test(input.value.trim()) ? parseInt(input.value, 10) : 0;
  }
  function plain(amountCents) {  // 125050 -> "1250.50"
    return Math.floor(amountCents / 100) + "." + String(amountCents % 100).padStart(2, "0");
  }
  function rows() {  // the rows parsed so far, each with both its boxes
    return Array.from(document.querySelectorAll("#chip-grid tbody tr")).map(function (row) {
      return {
        row: row,
        qty: row.querySelector("input.chip-qty"),
        amount: row.querySelector("input.chip-amount"),
      };
    }).filter(function (r) { return r.qty && r.amount; }).map(function (r) {
      r.value = parseInt(r.qty.dataset.valueCents, 10);
      return r;
    });
  }
  function update() {
    const byAmount = mode() === "amounts";
    let total = 0, count = 0, differs = false;
    rows().forEach(function (r) {
      let line = 0, qty = 0, whole = true;
      if (byAmount) {
        line = cents(r.amount.value);
        whole = line !== null && line % r.value === 0;
        r.amount.classList.toggle("is-invalid", !whole);
        line = line || 0;
        qty = whole ? line / r.value : 0;
      } else {
        qty = quantity(r.qty);
        line = qty * r.value;
      }
      show("line-" + r.value, money(line));
      total += line; count += qty;
      const previous = r.row.querySelector(".previous-qty");
      if (previous) {
        const same = whole && parseInt(previous.dataset.qty, 10) === qty;
        previous.classList.toggle("text-danger", !same);
        differs = differs || !same;
      }
    });
    show("grand-total", money(total));
    show("grand-quantity", String(count));
    const variance = document.getElementById("variance-box");
    if (variance) variance.classList.toggle("border-danger", differs);
    const flag = document.getElementById("variance-flag");
    if (flag) flag.hidden = !differs;
  }
  function follow() {
    // Each row that shows the other mode's box: carry what was typed into the chosen mode's
    // box, and show only that one (a row parsed after the mode was chosen is carried when
    // the page is complete; a row already in the mode is left as typed).
    const byAmount = mode() === "amounts";
    rows().forEach(function (r) {
      if (r.amount.hidden !== byAmount) return;
      if (byAmount) {
        const qty = quantity(r.qty);
        r.amount.value = qty ? plain(qty * r.value) : "";
      } else {
        const line = cents(r.amount.value);
        if (line !== null && line % r.value === 0) r.qty.value = line ? line / r.value : "";
      }
      r.qty.hidden = byAmount;
      r.amount.hidden = !byAmount;
      const label = r.row.querySelector("label.chip-label");
      if (label) label.htmlFor = byAmount ? label.dataset.amountFor : label.dataset.qtyFor;
    });
    show("entry-heading", byAmount ? "Dollars" : "Quantity");
    update();
  }
  document.addEventListener("input", function (e) {
    if (e.target instanceof HTMLInputElement && e.target.closest("#chip-grid")) update();
  });
  document.addEventListener("change", function (e) {
    if (e.target instanceof HTMLInputElement && e.target.matches("input.entry-mode")) follow();
  });
  // The variance box comes after the grid on the opener page: recount once the page is parsed.
  document.addEventListener("DOMContentLoaded", follow);
})();
