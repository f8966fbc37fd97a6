console.log("popup")
