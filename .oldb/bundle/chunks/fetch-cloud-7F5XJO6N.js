import{fetchCloudSnapshot,fetchLoadBalancerSnapshot}from"./chunk-QEY7DS3D.js";import"./chunk-SHTDRQAJ.js";import"./chunk-TX362KRZ.js";export{fetchCloudSnapshot,fetchLoadBalancerSnapshot};
