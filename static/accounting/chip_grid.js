// Running totals of the chip grid (display only: the server recounts every figure).
(function () {
  const grid = document.getElementById("chip-grid");
  const dollars = new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"});
  function money(cents) { return (cents < 0 ? "-" : "") + dollars.format(Math.abs(cents) / 100); }
  function update() {
    let total = 0, quantity = 0, differs = false;
    grid.querySelectorAll("input.chip-qty").forEach(function (input) {
      const qty = /^\d+$/.test(input.value.trim()) ? parseInt(input.value, 10) : 0;
      const value = parseInt(input.dataset.valueCents, 10);
      document.getElementById("line-" + value).textContent = money(qty * value);
      total += qty * value; quantity += qty;
      const previous = input.closest("tr").querySelector(".previous-qty");
      if (previous) {
        const same = parseInt(previous.dataset.qty, 10) === qty;
        previous.classList.toggle("text-danger", !same);
        differs = differs || !same;
      }
    });
    document.getElementById("grand-total").textContent = money(total);
    document.getElementById("grand-quantity").textContent = quantity;
    const variance = document.getElementById("variance-box");
    if (variance) variance.classList.toggle("border-danger", differs);
    const flag = document.getElementById("variance-flag");
    if (flag) flag.hidden = !differs;
  }
  grid.addEventListener("input", update);
  update();
})();
