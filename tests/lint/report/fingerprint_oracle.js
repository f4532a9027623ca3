#!/usr/bin/env node
// Independent re-implementation (BigInt, ring buffer) of the line hash that github/codeql-action's
// src/fingerprints.ts computes, used once to derive the expected values in reporter_test.cpp.
// Usage: node fingerprint_oracle.js FILE...   prints "FILE LINE HASH" for every line.
"use strict";
const fs = require("fs");

const WINDOW = 100;
const MASK = (1n << 64n) - 1n;
const BASE = 37n;
let basePow = 1n;
for (let i = 0; i < WINDOW; i++) basePow = (basePow * BASE) & MASK;

function hashes(text) {
  const ring = new Array(WINDOW).fill(0n);
  const startOf = new Array(WINDOW).fill(0); // line number whose first unit sits in this slot, 0 = none
  const counts = new Map();
  const result = [];
  let h = 0n;
  let slot = 0;
  let line = 0;
  let atStart = true;
  let afterCR = false;

  const emit = () => {
    const hex = h.toString(16);
    const n = (counts.get(hex) || 0) + 1;
    counts.set(hex, n);
    result.push([startOf[slot], `${hex}:${n}`]);
    startOf[slot] = 0;
  };
  const push = (unit) => {
    const old = ring[slot];
    ring[slot] = BigInt(unit);
    h = (h * BASE + BigInt(unit) - basePow * old) & MASK;
    slot = (slot + 1) % WINDOW;
  };
  const feed = (unit) => {
    if (unit === 0x20 || unit === 0x09 || (afterCR && unit === 0x0a)) {
      afterCR = false;
      return;
    }
    afterCR = unit === 0x0d;
    if (afterCR) unit = 0x0a;
    if (startOf[slot] !== 0) emit();
    if (atStart) {
      atStart = false;
      line += 1;
      startOf[slot] = line;
    }
    if (unit === 0x0a) atStart = true;
    push(unit);
  };

  for (let i = 0; i < text.length; i++) feed(text.charCodeAt(i));
  feed(0xffff);
  for (let i = 0; i < WINDOW; i++) {
    if (startOf[slot] !== 0) emit();
    push(0);
  }
  return result;
}

for (const file of process.argv.slice(2)) {
  for (const [line, hash] of hashes(fs.readFileSync(file, "utf8"))) {
    console.log(`${file} ${line} ${hash}`);
  }
}
