import{SERVICES,connect,readCaBundle}from"./chunk-TVWVLD5D.js";import"./chunk-QEY7DS3D.js";import"./chunk-SHTDRQAJ.js";import"./chunk-TX362KRZ.js";export{SERVICES,connect,readCaBundle};
