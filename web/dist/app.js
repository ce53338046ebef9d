"use strict";(()=>{var t=document.getElementById("app");t&&(t.textContent="warboard");})();
