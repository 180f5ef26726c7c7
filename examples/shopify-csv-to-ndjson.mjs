#!/usr/bin/env node
// Turns a Shopify-style product CSV export into Storefront product lines (NDJSON), one product per line,
// ready for `storefront import --resource products FILE`. No dependencies: node examples/shopify-csv-to-ndjson.mjs products.csv > products.ndjson
//
// The CSV has one row per variant; rows of one product share `Handle`, and only its first row carries the
// product's own columns (Title, Body (HTML), …). Options are `Option1 Name`/`Option1 Value` … `Option3 …`.
import { readFileSync } from 'node:fs';

/** RFC 4180 CSV: quoted fields may hold commas, newlines and doubled quotes. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\n' && c !== '\r')) {
      field += c;
    } else {
      row.push(field);
      field = '';
      if (c !== ',') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        rows.push(row);
        row = [];
      }
    }
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => r.some((cell) => cell !== ''));
  return body.map((cells) => Object.fromEntries(header.map((name, index) => [name.trim(), (cells[index] ?? '').trim()])));
}

const money = (value) => (value === '' ? null : Number(value));
// Storefront has two statuses: a draft or archived product is not for sale.
const STATUS = { active: 'active', draft: 'disabled', archived: 'disabled' };

/** The product's own columns, from its first row. */
function productOf(first) {
  return {
    handle: first.Handle,
    title: first.Title,
    description: first['Body (HTML)'] || null,
    status: STATUS[(first.Status || 'active').toLowerCase()] ?? 'active',
    badge: first.Type || null,
    price: money(first['Variant Price']),
    comparePrice: money(first['Variant Compare At Price']),
    images: [],
    options: [],
    variants: [],
    metaTitle: first['SEO Title'] || null,
    metaDescription: first['SEO Description'] || null,
    metaKeywords: first.Tags || null,
  };
}

/** Adds one CSV row's option values, variant and image to its product. */
function addRow(product, row, optionNames) {
  const attributes = {};
  optionNames.forEach((name, index) => {
    const value = row[`Option${index + 1} Value`];
    if (!name || !value) return;
    attributes[name] = value;
    let option = product.options.find((o) => o.name === name);
    if (!option) {
      option = { name, values: [] };
      product.options.push(option);
    }
    if (!option.values.includes(value)) option.values.push(value);
  });
  if (Object.keys(attributes).length) {
    product.variants.push({
      attributes,
      price: money(row['Variant Price']),
      salePrice: money(row['Variant Compare At Price']),
      stock: row['Variant Inventory Qty'] === '' ? 0 : Math.max(0, Number.parseInt(row['Variant Inventory Qty'], 10)),
      sku: row['Variant SKU'] || null,
    });
  }
  const image = row['Image Src'];
  if (image && !product.images.includes(image)) product.images.push(image);
}

const rows = parseCsv(readFileSync(process.argv[2] ?? 0, 'utf8'));
const products = new Map();
const optionNames = new Map();
for (const row of rows) {
  if (!products.has(row.Handle)) {
    products.set(row.Handle, productOf(row));
    optionNames.set(row.Handle, [row['Option1 Name'], row['Option2 Name'], row['Option3 Name']]);
  }
  addRow(products.get(row.Handle), row, optionNames.get(row.Handle));
}
for (const product of products.values()) {
  // Shopify writes a product without options as one "Title: Default Title" variant: no options here.
  if (product.options.length === 1 && product.options[0].name === 'Title') product.options = [];
  if (product.options.length === 0) product.variants = [];
  process.stdout.write(`${JSON.stringify(product)}\n`);
}
