// Running total of a counter's blind count (display only: the server recounts every figure).
(function () {
  const money = (cents) => "$" + (cents / 100).toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2});
  const inputs = Array.from(document.querySelectorAll("#count-grid .qty"));
  function update() {
    let total = 0;
    for (const input of inputs) {
      const q = /^\d+$/.test(input.value.trim()) ? parseInt(input.value.trim(), 10) : 0;
      const amount = q * parseInt(input.dataset.cents, 10);
      total += amount;
      document.querySelector('[data-amount-for="' + input.id + '"]').textContent = money(amount);
    }
    for (const id of ["running-total", "grid-total"]) document.getElementById(id).textContent = money(total);
  }
  inputs.forEach((input, i) => {
    input.addEventListener("input", update);
    input.addEventListener("focus", () => input.select());  // a pre-filled recount: retype only what differs
    input.addEventListener("keydown", (e) => {  // Enter moves down the grid, like a tally sheet, then on to the forms found
      if (e.key !== "Enter") return;
      e.preventDefault();
      const next = inputs[i + 1] || document.getElementById("fill_numbers");
      next.focus();
      next.select();
    });
  });
  update();
})();
