// Running totals of the denomination grids (display only: the server recounts every figure).
(function () {
  function money(cents) {
    const sign = cents < 0 ? "-" : "";
    const abs = Math.abs(cents);
    return sign + "$" + Math.floor(abs / 100).toLocaleString("en-US") + "." + String(abs % 100).padStart(2, "0");
  }
  function recount() {
    const totals = {};
    let grand = 0;
    document.querySelectorAll("input.qty").forEach(function (input) {
      const quantity = /^\d+$/.test(input.value.trim()) ? parseInt(input.value.trim(), 10) : 0;
      const cents = quantity * parseInt(input.dataset.valueCents, 10);
      const cell = document.querySelector('.amount[data-for="' + input.id + '"]');
      if (cell) cell.textContent = money(cents);
      totals[input.dataset.group] = (totals[input.dataset.group] || 0) + cents;
      grand += cents;
    });
    document.querySelectorAll(".group-total").forEach(function (cell) { cell.textContent = money(totals[cell.dataset.group] || 0); });
    document.querySelectorAll(".grand-total").forEach(function (cell) { cell.textContent = money(grand); });
  }
  document.addEventListener("input", function (event) { if (event.target.matches("input.qty")) recount(); });
  document.addEventListener("DOMContentLoaded", recount);
})();
