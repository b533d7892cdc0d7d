import{require_dist}from"./chunk-EQSWMYZT.js";import"./chunk-QEY7DS3D.js";import{redact,redactValue}from"./chunk-SHTDRQAJ.js";import{__toESM}from"./chunk-TX362KRZ.js";var import_yaml=__toESM(require_dist(),1);function renderResult(result,format){return result.raw!==void 0?result.raw:format==="json"?JSON.stringify(redactValue(result.data??null),null,2)+`
`:format==="yaml"?import_yaml.default.stringify(redactValue(result.data??null)):result.text!==void 0?redact(result.text.endsWith(`
`)||result.text===""?result.text:result.text+`
`):import_yaml.default.stringify(redactValue(result.data??null))}export{renderResult};
