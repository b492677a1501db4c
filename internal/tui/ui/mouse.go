package ui

import tea "charm.land/bubbletea/v2"

// WheelStep is how many rows one step of the mouse wheel scrolls.
const WheelStep = 3

// Wheel is the rows a wheel message scrolls: -WheelStep up, WheelStep
// down, 0 for a sideways wheel.
func Wheel(msg tea.MouseWheelMsg) int {
	switch msg.Button {
	case tea.MouseWheelUp:
		return -WheelStep
	case tea.MouseWheelDown:
		return WheelStep
	}
	return 0
}
