print("Hello world")
