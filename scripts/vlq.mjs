// Source map `mappings` (base64 VLQ) as arrays, to drop generated lines from a map (shake-declarations.mjs).
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** one array per generated line, of segments with absolute fields [column, source, line, column, name?] */
export function decodeMappings(mappings) {
  const state = [0, 0, 0, 0, 0];
  return mappings.split(";").map((line) => {
    state[0] = 0; // the generated column restarts on each line; the other fields run on
    return line === "" ? [] : line.split(",").map((segment) => {
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          const delta = value & 1 ? -(value >>> 1) : value >>> 1;
          state[fields.length] += delta;
          fields.push(state[fields.length]);
          value = shift = 0;
        }
      }
      return fields;
    });
  });
}

/** the inverse of decodeMappings */
export function encodeMappings(lines) {
  const state = [0, 0, 0, 0, 0];
  return lines
    .map((segments) => {
      state[0] = 0;
      return segments
        .map((fields) => fields.map((v, i) => {
          let rest = v - state[i];
          state[i] = v;
          rest = rest < 0 ? (-rest << 1) | 1 : rest << 1;
          let out = "";
          do {
            let digit = rest & 31;
            rest >>>= 5;
            if (rest > 0) digit |= 32;
            out += B64[digit];
          } while (rest > 0);
          return out;
        }).join(""))
        .join(",");
    })
    .join(";");
}
