// "Show every column" on a phone: the table's folded columns (.fold) come back, and the table
// scrolls sideways within its region; pressed again, they fold away.
(function () {
  document.querySelectorAll("button.fold-toggle").forEach(function (button) {
    var table = document.getElementById(button.getAttribute("aria-controls"));
    if (!table) return;
    button.addEventListener("click", function () {
      var unfolded = table.classList.toggle("unfolded");
      button.setAttribute("aria-expanded", unfolded ? "true" : "false");
      button.textContent = unfolded ? "Show the essential columns" : "Show every column";
    });
  });
})();
