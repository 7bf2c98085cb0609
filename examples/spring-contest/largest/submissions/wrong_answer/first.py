import sys
data = sys.stdin.read().split()
print(data[1])
