// placeholder
console.log('mori');
